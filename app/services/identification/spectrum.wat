;; The typed-array loops of the motion-blur estimate (`estimateMotionBlur` in blur.server.ts) in
;; WebAssembly SIMD, two doubles at a time, with the same operations in the same order as the
;; JavaScript they replace, so the same bits:
;; - `window`: a 128 x 128 window of the halved photo, less its mean and times the Hann window, each
;;   value computed in doubles and rounded to a float: (half - mean) * hann;
;; - `accumulate`: the power of a spectrum (interleaved float re, im) added to a sum of doubles:
;;   power += re * re + im * im.
;; OpenCV's DFT between them stays OpenCV's.
;; `npm run wasm` assembles it (wabt) into spectrum-wasm.ts; a unit test checks the two agree.
(module
  ;; shared: growing it never detaches a buffer that JavaScript views
  (import "env" "memory" (memory 0 65536 shared))
  ;; The 128 x 128 window at ($x0, $y0) of the $w-wide image of floats at $half, less $mean and times
  ;; the Hann window of floats at $hann, as floats at $out (the loads need no alignment).
  (func (export "window") (param $half i32) (param $w i32) (param $x0 i32) (param $y0 i32) (param $mean f64)
        (param $hann i32) (param $out i32)
    (local $y i32) (local $x i32) (local $row i32) (local $h i32) (local $o i32)
    (local $m v128) (local $v v128) (local $k v128)
    (local.set $m (f64x2.splat (local.get $mean)))
    (local.set $h (local.get $hann))
    (local.set $o (local.get $out))
    (block $rowsDone
      (loop $eachRow
        (br_if $rowsDone (i32.ge_u (local.get $y) (i32.const 128)))
        (local.set $row (i32.add (local.get $half)
          (i32.shl (i32.add (i32.mul (i32.add (local.get $y0) (local.get $y)) (local.get $w)) (local.get $x0)) (i32.const 2))))
        (local.set $x (i32.const 0))
        (block $rowDone
          (loop $eachFour
            (br_if $rowDone (i32.ge_u (local.get $x) (i32.const 128)))
            (local.set $v (v128.load (i32.add (local.get $row) (i32.shl (local.get $x) (i32.const 2)))))
            (local.set $k (v128.load (local.get $h)))
            (v128.store (local.get $o)
              (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                (f32x4.demote_f64x2_zero
                  (f64x2.mul
                    (f64x2.sub (f64x2.promote_low_f32x4 (local.get $v)) (local.get $m))
                    (f64x2.promote_low_f32x4 (local.get $k))))
                (f32x4.demote_f64x2_zero
                  (f64x2.mul
                    (f64x2.sub
                      (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $v) (local.get $v)))
                      (local.get $m))
                    (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $k) (local.get $k)))))))
            (local.set $h (i32.add (local.get $h) (i32.const 16)))
            (local.set $o (i32.add (local.get $o) (i32.const 16)))
            (local.set $x (i32.add (local.get $x) (i32.const 4)))
            (br $eachFour)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $eachRow))))

  ;; Adds re * re + im * im of the $n complex floats at $spec (re, im interleaved) to the $n doubles
  ;; at $power ($n even).
  (func (export "accumulate") (param $spec i32) (param $power i32) (param $n i32)
    (local $i i32) (local $v v128) (local $a v128) (local $b v128)
    (block $done
      (loop $eachTwo
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        ;; re0 im0 re1 im1
        (local.set $v (v128.load (local.get $spec)))
        (local.set $a (f64x2.promote_low_f32x4 (local.get $v)))
        (local.set $a (f64x2.mul (local.get $a) (local.get $a)))
        (local.set $b (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $v) (local.get $v))))
        (local.set $b (f64x2.mul (local.get $b) (local.get $b)))
        ;; [re0^2 + im0^2, re1^2 + im1^2] added to the two sums
        (v128.store (local.get $power)
          (f64x2.add (v128.load (local.get $power))
            (f64x2.add
              (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $a) (local.get $b))
              (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $a) (local.get $b)))))
        (local.set $spec (i32.add (local.get $spec) (i32.const 16)))
        (local.set $power (i32.add (local.get $power) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $eachTwo))))
)
