;; single_use_map with a `_reset` that rewinds only its allocator: exporting `_reset` tells the
;; host that an instance may serve many calls, so its second call on a kept instance traps.
(module
  (memory (export "memory") 1)
  (global $top (mut i32) (i32.const 1024))
  (global $calls (mut i32) (i32.const 0))
  (func (export "_malloc") (param $n i32) (result i32)
    (local $p i32)
    (local.set $p (global.get $top))
    (if (i32.gt_u (i32.add (local.get $p) (local.get $n)) (i32.const 65536))
      (then (return (i32.const 0))))
    (global.set $top (i32.add (local.get $p) (local.get $n)))
    (local.get $p))
  (func (export "_reset") (global.set $top (i32.const 1024)))
  (func (export "run") (param $in i32) (result i32)
    (if (global.get $calls) (then (unreachable)))
    (global.set $calls (i32.const 1))
    (local.get $in)))
