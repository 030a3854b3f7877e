;; A map module built for a host that instantiates it for every call, as the prototype's Rust
;; modules are: it returns its input on the first call of an instance and traps (unreachable) on
;; any later one, the way state that only grows (a log index, a "logger set" flag) fails them.
;; It exports no `_reset`, so the host must give every call a fresh instance.
(module
  (memory (export "memory") 1)
  (global $top (mut i32) (i32.const 1024))
  (global $calls (mut i32) (i32.const 0))
  ;; Bump allocator that never rewinds (one call's inputs fit in the first page).
  (func (export "_malloc") (param $n i32) (result i32)
    (local $p i32)
    (local.set $p (global.get $top))
    (if (i32.gt_u (i32.add (local.get $p) (local.get $n)) (i32.const 65536))
      (then (return (i32.const 0))))
    (global.set $top (i32.add (local.get $p) (local.get $n)))
    (local.get $p))
  (func (export "run") (param $in i32) (result i32)
    (if (global.get $calls) (then (unreachable)))
    (global.set $calls (i32.const 1))
    (local.get $in)))
