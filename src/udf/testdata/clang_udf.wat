;; A map module as clang-14 emits it (a table of function pointers, data, mutable globals), from:
;;   typedef unsigned int u32;
;;   extern unsigned char __heap_base;
;;   static unsigned long top;
;;   __attribute__((export_name("_malloc"))) void* my_malloc(int n) {
;;     if (!top) top = (unsigned long)&__heap_base;
;;     unsigned long p = (top + 7) & ~7ul, end = p + (u32)n;
;;     unsigned long have = __builtin_wasm_memory_size(0) * 65536ul;
;;     if (end > have && __builtin_wasm_memory_grow(0, (end - have + 65535) / 65536) == (unsigned long)-1) return 0;
;;     top = end; return (void*)p;
;;   }
;;   __attribute__((export_name("_reset"))) void reset(void) { top = 0; }
;;   static const char* names[] = {"alpha", "beta", "gamma", "delta", "epsilon"};
;;   typedef int (*op)(int, int);
;;   static int add(int a, int b) { return a + b; }
;;   static int sub(int a, int b) { return a - b; }
;;   static int mul(int a, int b) { return a * b; }
;;   static int dv(int a, int b) { return b ? a / b : 0; }
;;   static op ops[] = {add, sub, mul, dv};
;;   static double acc;
;;   int work(int x) {
;;     int s = 0;
;;     for (int i = 0; i < x; ++i) {
;;       switch (i % 7) {
;;         case 0: s += ops[i & 3](s, i); break;
;;         case 1: s ^= names[i % 5][0]; break;
;;         case 2: acc += (double)i / 3.0; break;
;;         case 3: s = (int)(acc * 2) + s; break;
;;         case 4: s += (long long)i * 7 >> 3; break;
;;         default: s -= i;
;;       }
;;     }
;;     return s;
;;   }
;;   __attribute__((export_name("run"))) unsigned char* run(unsigned char* in) {
;;     work(in[8]);
;;     return in;
;;   }
;;   static char err[64] = "\0\0\0\0\0\0\0\x05oops!";
;;   __attribute__((export_name("get_errors"))) char* get_errors(void) { return err; }
;; built with: clang-14 --target=wasm32 -O2 -nostdlib -Wl,--no-entry -Wl,--export-dynamic
;; and turned into text with wasm2wat. run(in) calls work(in[8]) and returns in (an echo).
(module
  (type (;0;) (func (param i32 i32) (result i32)))
  (type (;1;) (func (param i32) (result i32)))
  (type (;2;) (func))
  (type (;3;) (func (result i32)))
  (func $my_malloc (type 1) (param i32) (result i32)
    (local i32 i32)
    block  ;; label = @1
      i32.const 0
      i32.load offset=1168
      local.tee 1
      br_if 0 (;@1;)
      i32.const 66720
      local.set 1
      i32.const 0
      i32.const 66720
      i32.store offset=1168
    end
    block  ;; label = @1
      local.get 1
      i32.const 7
      i32.add
      i32.const -8
      i32.and
      local.tee 2
      local.get 0
      i32.add
      local.tee 1
      memory.size
      i32.const 16
      i32.shl
      local.tee 0
      i32.le_u
      br_if 0 (;@1;)
      local.get 1
      local.get 0
      i32.sub
      i32.const 65535
      i32.add
      i32.const 16
      i32.shr_u
      memory.grow
      i32.const -1
      i32.ne
      br_if 0 (;@1;)
      i32.const 0
      return
    end
    i32.const 0
    local.get 1
    i32.store offset=1168
    local.get 2)
  (func $reset (type 2)
    i32.const 0
    i32.const 0
    i32.store offset=1168)
  (func $run (type 1) (param i32) (result i32)
    (local i64 i64 i32 i32 i32 i32 i32 f64)
    block  ;; label = @1
      local.get 0
      i64.load8_u offset=8
      local.tee 1
      i64.eqz
      br_if 0 (;@1;)
      local.get 1
      i64.const 7
      i64.mul
      local.set 2
      i64.const 0
      local.set 1
      i32.const 1040
      local.set 3
      i32.const 0
      local.set 4
      i32.const 0
      local.set 5
      i32.const 0
      local.set 6
      loop  ;; label = @2
        local.get 4
        i32.const 5
        i32.div_u
        local.set 7
        block  ;; label = @3
          block  ;; label = @4
            block  ;; label = @5
              block  ;; label = @6
                block  ;; label = @7
                  block  ;; label = @8
                    block  ;; label = @9
                      local.get 4
                      local.get 4
                      i32.const 7
                      i32.div_u
                      i32.const -7
                      i32.mul
                      i32.add
                      br_table 0 (;@9;) 1 (;@8;) 2 (;@7;) 3 (;@6;) 4 (;@5;) 5 (;@4;)
                    end
                    local.get 6
                    local.get 4
                    local.get 4
                    i32.const 3
                    i32.and
                    i32.const 2
                    i32.shl
                    i32.const 1024
                    i32.add
                    i32.load
                    call_indirect (type 0)
                    local.get 6
                    i32.add
                    local.set 6
                    br 5 (;@3;)
                  end
                  local.get 6
                  local.get 3
                  local.get 7
                  i32.const -20
                  i32.mul
                  i32.add
                  i32.load
                  i32.load8_s
                  i32.xor
                  local.set 6
                  br 4 (;@3;)
                end
                i32.const 0
                local.get 4
                f64.convert_i32_s
                f64.const 0x1.8p+1 (;=3;)
                f64.div
                i32.const 0
                f64.load offset=1176
                f64.add
                f64.store offset=1176
                br 3 (;@3;)
              end
              block  ;; label = @6
                i32.const 0
                f64.load offset=1176
                local.tee 8
                local.get 8
                f64.add
                local.tee 8
                f64.abs
                f64.const 0x1p+31 (;=2.14748e+09;)
                f64.lt
                i32.eqz
                br_if 0 (;@6;)
                local.get 6
                local.get 8
                i32.trunc_f64_s
                i32.add
                local.set 6
                br 3 (;@3;)
              end
              local.get 6
              i32.const -2147483648
              i32.add
              local.set 6
              br 2 (;@3;)
            end
            local.get 6
            local.get 1
            i64.const 3
            i64.shr_u
            i32.wrap_i64
            i32.add
            local.set 6
            br 1 (;@3;)
          end
          local.get 5
          local.get 6
          i32.add
          local.set 6
        end
        local.get 3
        i32.const 4
        i32.add
        local.set 3
        local.get 4
        i32.const 1
        i32.add
        local.set 4
        local.get 5
        i32.const -1
        i32.add
        local.set 5
        local.get 2
        local.get 1
        i64.const 7
        i64.add
        local.tee 1
        i64.ne
        br_if 0 (;@2;)
      end
    end
    local.get 0)
  (func $get_errors (type 3) (result i32)
    i32.const 1104)
  (func $add (type 0) (param i32 i32) (result i32)
    local.get 1
    local.get 0
    i32.add)
  (func $sub (type 0) (param i32 i32) (result i32)
    local.get 0
    local.get 1
    i32.sub)
  (func $mul (type 0) (param i32 i32) (result i32)
    local.get 1
    local.get 0
    i32.mul)
  (func $dv (type 0) (param i32 i32) (result i32)
    block  ;; label = @1
      local.get 1
      br_if 0 (;@1;)
      i32.const 0
      return
    end
    local.get 0
    local.get 1
    i32.div_s)
  (table (;0;) 5 5 funcref)
  (memory (;0;) 2)
  (global $__stack_pointer (mut i32) (i32.const 66720))
  (export "memory" (memory 0))
  (export "_malloc" (func $my_malloc))
  (export "_reset" (func $reset))
  (export "run" (func $run))
  (export "get_errors" (func $get_errors))
  (elem (;0;) (i32.const 1) func $add $sub $mul $dv)
  (data $.rodata (i32.const 1024) "\01\00\00\00\02\00\00\00\03\00\00\00\04\00\00\00=\04\00\002\04\00\007\04\00\00,\04\00\00$\04\00\00epsilon\00delta\00beta\00gamma\00alpha\00")
  (data $.data (i32.const 1104) "\00\00\00\00\00\00\00\05oops!\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"))
