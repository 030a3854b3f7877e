;; run returns 0; get_errors reports 5000 bytes starting with a newline, a tab, an invalid UTF-8
;; byte and a valid two-byte character, then 'x's.
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
  (func (export "run") (param $in i32) (result i32) (i32.const 0))
  (func (export "get_errors") (result i32)
    (memory.fill (i32.const 8192) (i32.const 0x78) (i32.const 5000))
    (i32.store8 (i32.const 8192) (i32.const 0x0a))
    (i32.store8 (i32.const 8193) (i32.const 0x09))
    (i32.store8 (i32.const 8194) (i32.const 0xff))
    (i32.store8 (i32.const 8195) (i32.const 0xc3))
    (i32.store8 (i32.const 8196) (i32.const 0xa9))
    ;; 5000 = 0x1388 big-endian in the last two of the 8 length bytes at 8184.
    (i64.store (i32.const 8184) (i64.const 0x8813000000000000))
    (i32.const 8184)))
