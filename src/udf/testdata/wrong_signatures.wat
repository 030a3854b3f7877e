;; Every function export has the wrong type.
(module
  (memory (export "memory") 1)
  (func (export "_malloc") (param $n i64) (result i32) (i32.const 0))
  (func (export "run") (param $in f32) (result i32) (i32.const 0))
  (func (export "get_errors") (param $x i32) (result i32) (i32.const 0))
  (func (export "_reset") (result i32) (i32.const 0)))
