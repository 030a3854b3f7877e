;; 'run' is a global and 'memory' a table.
(module
  (memory 1)
  (table (export "memory") 1 funcref)
  (global (export "run") i32 (i32.const 0))
  (func (export "_malloc") (param $n i32) (result i32) (i32.const 0)))
