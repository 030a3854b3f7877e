;; A map module whose result is well framed but is not an Arrow IPC stream: run returns a
;; pointer to an 8-byte big-endian length (16) followed by 16 bytes of noise.
(module
  (memory (export "memory") 1)
  (data (i32.const 64) "\00\00\00\00\00\00\00\10" "not arrow at all")
  (global $top (mut i32) (i32.const 1024))
  (func (export "_malloc") (param $n i32) (result i32)
    (local $p i32)
    (local.set $p (global.get $top))
    (global.set $top (i32.add (global.get $top) (i32.and (i32.add (local.get $n) (i32.const 7))
                                                           (i32.const -8))))
    (if (i32.gt_u (global.get $top) (i32.shl (memory.size) (i32.const 16)))
      (then (drop (memory.grow (i32.const 16)))))
    (local.get $p))
  (func (export "_reset") (global.set $top (i32.const 1024)))
  (func (export "run") (param $in i32) (result i32) (i32.const 64)))
