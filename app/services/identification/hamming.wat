;; The exhaustive ratio-tested descriptor matching of vocab.server.ts (`ratioMatches`), in WebAssembly:
;; a 256-bit ORB descriptor is four 64-bit words, and WebAssembly's i64.popcnt counts the bits of one
;; in a single instruction where JavaScript looks a 16-bit table up twice per 32-bit word. The same
;; comparisons in the same order as the JavaScript it replaced, so the same pairs; about 5x faster.
;; `npm run wasm:hamming` assembles it (wabt) into hamming-wasm.ts; a unit test checks the two agree.
(module
  (memory (export "memory") 2)
  ;; Ratio-tested nearest neighbours of a's descriptors among b's: a holds $an descriptors from byte
  ;; $a, b holds $bn from byte $b, 32 bytes each. For each descriptor of a, its nearest and second-
  ;; nearest in b; a distance is abandoned once its first 192 bits exceed $far (acceptHamming / ratio,
  ;; rounded down). The pair (i, j) is kept when the nearest is within $accept and nearer than $ratio
  ;; times the second; pairs are written as two i32 each from byte $out; returns how many.
  (func (export "ratioMatches") (param $a i32) (param $an i32) (param $b i32) (param $bn i32)
        (param $far i32) (param $accept i32) (param $ratio f64) (param $out i32) (result i32)
    (local $i i32) (local $j i32) (local $pa i32) (local $pb i32) (local $d i32)
    (local $best i32) (local $sec i32) (local $bj i32) (local $n i32)
    (local $a0 i64) (local $a1 i64) (local $a2 i64) (local $a3 i64)
    (block $rows_done
      (loop $rows
        (br_if $rows_done (i32.ge_u (local.get $i) (local.get $an)))
        (local.set $pa (i32.add (local.get $a) (i32.shl (local.get $i) (i32.const 5))))
        (local.set $a0 (i64.load (local.get $pa)))
        (local.set $a1 (i64.load offset=8 (local.get $pa)))
        (local.set $a2 (i64.load offset=16 (local.get $pa)))
        (local.set $a3 (i64.load offset=24 (local.get $pa)))
        (local.set $best (i32.const 999))
        (local.set $sec (i32.const 999))
        (local.set $bj (i32.const -1))
        (local.set $j (i32.const 0))
        (local.set $pb (local.get $b))
        (block $cols_done
          (loop $cols
            (br_if $cols_done (i32.ge_u (local.get $j) (local.get $bn)))
            ;; the first 192 bits; the distance is abandoned beyond $far
            (local.set $d (i32.wrap_i64
              (i64.add
                (i64.add
                  (i64.popcnt (i64.xor (local.get $a0) (i64.load (local.get $pb))))
                  (i64.popcnt (i64.xor (local.get $a1) (i64.load offset=8 (local.get $pb)))))
                (i64.popcnt (i64.xor (local.get $a2) (i64.load offset=16 (local.get $pb)))))))
            (if (i32.le_u (local.get $d) (local.get $far))
              (then
                (local.set $d (i32.add (local.get $d)
                  (i32.wrap_i64 (i64.popcnt (i64.xor (local.get $a3) (i64.load offset=24 (local.get $pb)))))))
                (if (i32.lt_s (local.get $d) (local.get $sec))
                  (then
                    (if (i32.lt_s (local.get $d) (local.get $best))
                      (then
                        (local.set $sec (local.get $best))
                        (local.set $best (local.get $d))
                        (local.set $bj (local.get $j)))
                      (else (local.set $sec (local.get $d))))))))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (local.set $pb (i32.add (local.get $pb) (i32.const 32)))
            (br $cols)))
        (if (i32.ge_s (local.get $bj) (i32.const 0))
          (then
            (if (i32.le_s (local.get $best) (local.get $accept))
              (then
                (if (f64.lt (f64.convert_i32_s (local.get $best)) (f64.mul (local.get $ratio) (f64.convert_i32_s (local.get $sec))))
                  (then
                    (i32.store (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 3))) (local.get $i))
                    (i32.store offset=4 (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 3))) (local.get $bj))
                    (local.set $n (i32.add (local.get $n) (i32.const 1)))))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rows)))
    (local.get $n)))
