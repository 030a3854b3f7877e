;; An echo map module that never frees: its `_reset` does nothing, so on an instance the host
;; keeps (a module exporting `_reset` is reused) every input stays in memory.
(module
  (memory (export "memory") 1)
  ;; Bump allocator: 8-byte aligned blocks from $top up, growing memory as needed; 0 when
  ;; memory cannot grow.
  (global $top (mut i32) (i32.const 1024))
  (func $malloc (export "_malloc") (param $n i32) (result i32)
    (local $p i32) (local $end i32) (local $have i32)
    (local.set $p (i32.and (i32.add (global.get $top) (i32.const 7)) (i32.const -8)))
    (local.set $end (i32.add (local.get $p) (local.get $n)))
    (if (i32.lt_u (local.get $end) (local.get $p)) (then (return (i32.const 0))))
    (local.set $have (i32.shl (memory.size) (i32.const 16)))
    (if (i32.gt_u (local.get $end) (local.get $have))
      (then
        (if (i32.eq (memory.grow (i32.shr_u (i32.add (i32.sub (local.get $end) (local.get $have))
                                                     (i32.const 65535))
                                            (i32.const 16)))
                    (i32.const -1))
          (then (return (i32.const 0))))))
    (global.set $top (local.get $end))
    (local.get $p))
  (func (export "_reset"))
  (func (export "run") (param $in i32) (result i32) (local.get $in)))
