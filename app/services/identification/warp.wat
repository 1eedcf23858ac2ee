;; The photo's warp onto a reference (`warpPerspective` in warp.server.ts) in WebAssembly: OpenCV's
;; warpPerspective (bilinear, constant border 0) byte for byte, with OpenCV's nearest-neighbour warp of a
;; mask (or of a plane of 255s: where the photo covers the frame) in the same pass. The same arithmetic
;; as the JavaScript it replaces, step for step:
;; - the inverse homography's nine doubles, taken in blocks of $bw x $bh destination pixels, each row of
;;   a block starting again from the block's left edge: X0 = m0 x + m1 y + m2 (no fused multiply-add,
;;   as in JavaScript);
;; - each source position in 1/32 px: (X0 + m0 x1) * (32 / w), rounded half to even (f64.nearest) and
;;   clamped to 32 bits (i32.trunc_sat_f64_s), as OpenCV's saturate_cast<int> does; 32 / w is 0 where w
;;   is 0 (or not a number);
;; - the 15-bit bilinear weights, (sum * 32 + 16384) >> 15, a neighbour outside the source counting as 0,
;;   a position a whole pixel outside giving 0;
;; - the nearest pixel read off the 1/32 position, except at exactly half a pixel, where it takes
;;   OpenCV's own division, (X0 + m0 x1) * (1 / w) rounded half to even.
;; With a $region (one byte a frame pixel, 0 to skip), only the pixels it marks are made.
;; `npm run wasm` assembles it (wabt) into warp-wasm.ts; a unit test checks the two agree, and
;; `perspective-warp.test.ts` compares the warps with OpenCV's.
(module
  ;; shared: growing it never detaches a buffer that JavaScript views
  (import "env" "memory" (memory 0 65536 shared))
  ;; Warps the $sw x $sh source at $src ($cn interleaved channels) onto the $W x $Hh frame at $dst
  ;; (zeroed by the caller), by the inverse homography at $m (nine f64, row by row: frame -> source),
  ;; in blocks of $bw x $bh. $near (0: none) receives the nearest-neighbour warp of the one-byte mask
  ;; at $mask (0: a plane of 255s), zeroed by the caller too. $region: 0, or one byte a frame pixel.
  (func (export "warp") (param $src i32) (param $sw i32) (param $sh i32) (param $cn i32)
        (param $dst i32) (param $W i32) (param $Hh i32) (param $bw i32) (param $bh i32)
        (param $near i32) (param $mask i32) (param $region i32) (param $m i32)
    (local $m0 f64) (local $m1 f64) (local $m2 f64) (local $m3 f64) (local $m4 f64) (local $m5 f64)
    (local $m6 f64) (local $m7 f64) (local $m8 f64)
    (local $X0 f64) (local $Y0 f64) (local $W0 f64) (local $w f64) (local $xn f64) (local $yn f64)
    (local $k f64) (local $f f64) (local $fy f64) (local $fx f64)
    (local $x i32) (local $y i32) (local $x1 i32) (local $y1 i32) (local $cols i32) (local $rows i32)
    (local $X i32) (local $Y i32) (local $o i32) (local $nx i32) (local $ny i32) (local $sx i32) (local $sy i32)
    (local $ax i32) (local $ay i32) (local $w00 i32) (local $w01 i32) (local $w10 i32) (local $w11 i32)
    (local $i i32) (local $q i32) (local $c i32) (local $stride i32)
    (local $left i32) (local $right i32) (local $top i32) (local $bottom i32)
    (local.set $m0 (f64.load (local.get $m)))
    (local.set $m1 (f64.load offset=8 (local.get $m)))
    (local.set $m2 (f64.load offset=16 (local.get $m)))
    (local.set $m3 (f64.load offset=24 (local.get $m)))
    (local.set $m4 (f64.load offset=32 (local.get $m)))
    (local.set $m5 (f64.load offset=40 (local.get $m)))
    (local.set $m6 (f64.load offset=48 (local.get $m)))
    (local.set $m7 (f64.load offset=56 (local.get $m)))
    (local.set $m8 (f64.load offset=64 (local.get $m)))
    (local.set $stride (i32.mul (local.get $sw) (local.get $cn)))
    (local.set $y (i32.const 0))
    (block $blockRowsDone
      (loop $eachBlockRow
        (br_if $blockRowsDone (i32.ge_s (local.get $y) (local.get $Hh)))
        (local.set $rows (select (local.get $bh) (i32.sub (local.get $Hh) (local.get $y))
          (i32.lt_s (local.get $bh) (i32.sub (local.get $Hh) (local.get $y)))))
        (local.set $x (i32.const 0))
        (block $blocksDone
          (loop $eachBlock
            (br_if $blocksDone (i32.ge_s (local.get $x) (local.get $W)))
            (local.set $cols (select (local.get $bw) (i32.sub (local.get $W) (local.get $x))
              (i32.lt_s (local.get $bw) (i32.sub (local.get $W) (local.get $x)))))
            (local.set $fx (f64.convert_i32_s (local.get $x)))
            (local.set $y1 (i32.const 0))
            (block $linesDone
              (loop $eachLine
                (br_if $linesDone (i32.ge_s (local.get $y1) (local.get $rows)))
                (local.set $fy (f64.convert_i32_s (i32.add (local.get $y) (local.get $y1))))
                (local.set $X0 (f64.add (f64.add (f64.mul (local.get $m0) (local.get $fx)) (f64.mul (local.get $m1) (local.get $fy))) (local.get $m2)))
                (local.set $Y0 (f64.add (f64.add (f64.mul (local.get $m3) (local.get $fx)) (f64.mul (local.get $m4) (local.get $fy))) (local.get $m5)))
                (local.set $W0 (f64.add (f64.add (f64.mul (local.get $m6) (local.get $fx)) (f64.mul (local.get $m7) (local.get $fy))) (local.get $m8)))
                (local.set $o (i32.add (i32.mul (i32.add (local.get $y) (local.get $y1)) (local.get $W)) (local.get $x)))
                (local.set $x1 (i32.const 0))
                (block $pixelsDone
                  (loop $eachPixel
                    (br_if $pixelsDone (i32.ge_s (local.get $x1) (local.get $cols)))
                    (block $next
                      (if (local.get $region)
                        (then (br_if $next (i32.eqz (i32.load8_u (i32.add (local.get $region) (local.get $o)))))))
                      (local.set $f (f64.convert_i32_s (local.get $x1)))
                      (local.set $w (f64.add (local.get $W0) (f64.mul (local.get $m6) (local.get $f))))
                      (local.set $xn (f64.add (local.get $X0) (f64.mul (local.get $m0) (local.get $f))))
                      (local.set $yn (f64.add (local.get $Y0) (f64.mul (local.get $m3) (local.get $f))))
                      ;; 32 / w, or 0 where w is 0 or not a number
                      (local.set $k (select (f64.div (f64.const 32) (local.get $w)) (f64.const 0)
                        (f64.gt (f64.abs (local.get $w)) (f64.const 0))))
                      (local.set $X (i32.trunc_sat_f64_s (f64.nearest (f64.mul (local.get $xn) (local.get $k)))))
                      (local.set $Y (i32.trunc_sat_f64_s (f64.nearest (f64.mul (local.get $yn) (local.get $k)))))
                      (if (local.get $near)
                        (then
                          (if (i32.or (i32.eq (i32.and (local.get $X) (i32.const 31)) (i32.const 16))
                                      (i32.eq (i32.and (local.get $Y) (i32.const 31)) (i32.const 16)))
                            (then
                              ;; at half a pixel: OpenCV's own division
                              (local.set $k (select (f64.div (f64.const 1) (local.get $w)) (f64.const 0)
                                (f64.gt (f64.abs (local.get $w)) (f64.const 0))))
                              (local.set $nx (i32.trunc_sat_f64_s (f64.nearest (f64.mul (local.get $xn) (local.get $k)))))
                              (local.set $ny (i32.trunc_sat_f64_s (f64.nearest (f64.mul (local.get $yn) (local.get $k))))))
                            (else
                              (local.set $nx (i32.add (i32.shr_s (local.get $X) (i32.const 5))
                                (i32.shr_u (i32.and (local.get $X) (i32.const 31)) (i32.const 4))))
                              (local.set $ny (i32.add (i32.shr_s (local.get $Y) (i32.const 5))
                                (i32.shr_u (i32.and (local.get $Y) (i32.const 31)) (i32.const 4))))))
                          (if (i32.and (i32.lt_u (local.get $nx) (local.get $sw)) (i32.lt_u (local.get $ny) (local.get $sh)))
                            (then
                              (i32.store8 (i32.add (local.get $near) (local.get $o))
                                (if (result i32) (local.get $mask)
                                  (then (i32.load8_u (i32.add (local.get $mask)
                                    (i32.add (i32.mul (local.get $ny) (local.get $sw)) (local.get $nx)))))
                                  (else (i32.const 255))))))))
                      (local.set $sx (i32.shr_s (local.get $X) (i32.const 5)))
                      (local.set $sy (i32.shr_s (local.get $Y) (i32.const 5)))
                      ;; a whole pixel outside: 0
                      (br_if $next (i32.or
                        (i32.or (i32.lt_s (local.get $sx) (i32.const -1)) (i32.lt_s (local.get $sy) (i32.const -1)))
                        (i32.or (i32.ge_s (local.get $sx) (local.get $sw)) (i32.ge_s (local.get $sy) (local.get $sh)))))
                      (local.set $ax (i32.and (local.get $X) (i32.const 31)))
                      (local.set $ay (i32.and (local.get $Y) (i32.const 31)))
                      (local.set $w00 (i32.mul (i32.sub (i32.const 32) (local.get $ax)) (i32.sub (i32.const 32) (local.get $ay))))
                      (local.set $w01 (i32.mul (local.get $ax) (i32.sub (i32.const 32) (local.get $ay))))
                      (local.set $w10 (i32.mul (i32.sub (i32.const 32) (local.get $ax)) (local.get $ay)))
                      (local.set $w11 (i32.mul (local.get $ax) (local.get $ay)))
                      (local.set $i (i32.add (local.get $src)
                        (i32.add (i32.mul (local.get $sy) (local.get $stride)) (i32.mul (local.get $sx) (local.get $cn)))))
                      (local.set $q (i32.add (local.get $dst) (i32.mul (local.get $o) (local.get $cn))))
                      (if (i32.and
                            (i32.lt_u (local.get $sx) (i32.sub (local.get $sw) (i32.const 1)))
                            (i32.lt_u (local.get $sy) (i32.sub (local.get $sh) (i32.const 1))))
                        (then
                          ;; inside the source: four neighbours
                          (local.set $c (i32.const 0))
                          (loop $eachChannel
                            (i32.store8 (i32.add (local.get $q) (local.get $c))
                              (i32.shr_s
                                (i32.add
                                  (i32.shl
                                    (i32.add
                                      (i32.add
                                        (i32.mul (i32.load8_u (local.get $i)) (local.get $w00))
                                        (i32.mul (i32.load8_u (i32.add (local.get $i) (local.get $cn))) (local.get $w01)))
                                      (i32.add
                                        (i32.mul (i32.load8_u (i32.add (local.get $i) (local.get $stride))) (local.get $w10))
                                        (i32.mul (i32.load8_u (i32.add (i32.add (local.get $i) (local.get $stride)) (local.get $cn))) (local.get $w11))))
                                    (i32.const 5))
                                  (i32.const 16384))
                                (i32.const 15)))
                            (local.set $i (i32.add (local.get $i) (i32.const 1)))
                            (local.set $c (i32.add (local.get $c) (i32.const 1)))
                            (br_if $eachChannel (i32.lt_s (local.get $c) (local.get $cn)))))
                        (else
                          ;; on the source's edge: the neighbours outside it count as 0
                          (local.set $left (i32.ge_s (local.get $sx) (i32.const 0)))
                          (local.set $right (i32.lt_s (i32.add (local.get $sx) (i32.const 1)) (local.get $sw)))
                          (local.set $top (i32.ge_s (local.get $sy) (i32.const 0)))
                          (local.set $bottom (i32.lt_s (i32.add (local.get $sy) (i32.const 1)) (local.get $sh)))
                          (local.set $c (i32.const 0))
                          (loop $eachEdgeChannel
                            (i32.store8 (i32.add (local.get $q) (local.get $c))
                              (i32.shr_s
                                (i32.add
                                  (i32.shl
                                    (i32.add
                                      (i32.add
                                        (if (result i32) (i32.and (local.get $left) (local.get $top))
                                          (then (i32.mul (i32.load8_u (local.get $i)) (local.get $w00)))
                                          (else (i32.const 0)))
                                        (if (result i32) (i32.and (local.get $right) (local.get $top))
                                          (then (i32.mul (i32.load8_u (i32.add (local.get $i) (local.get $cn))) (local.get $w01)))
                                          (else (i32.const 0))))
                                      (i32.add
                                        (if (result i32) (i32.and (local.get $left) (local.get $bottom))
                                          (then (i32.mul (i32.load8_u (i32.add (local.get $i) (local.get $stride))) (local.get $w10)))
                                          (else (i32.const 0)))
                                        (if (result i32) (i32.and (local.get $right) (local.get $bottom))
                                          (then (i32.mul (i32.load8_u (i32.add (i32.add (local.get $i) (local.get $stride)) (local.get $cn))) (local.get $w11)))
                                          (else (i32.const 0)))))
                                    (i32.const 5))
                                  (i32.const 16384))
                                (i32.const 15)))
                            (local.set $i (i32.add (local.get $i) (i32.const 1)))
                            (local.set $c (i32.add (local.get $c) (i32.const 1)))
                            (br_if $eachEdgeChannel (i32.lt_s (local.get $c) (local.get $cn)))))))
                    (local.set $o (i32.add (local.get $o) (i32.const 1)))
                    (local.set $x1 (i32.add (local.get $x1) (i32.const 1)))
                    (br $eachPixel)))
                (local.set $y1 (i32.add (local.get $y1) (i32.const 1)))
                (br $eachLine)))
            (local.set $x (i32.add (local.get $x) (local.get $bw)))
            (br $eachBlock)))
        (local.set $y (i32.add (local.get $y) (local.get $bh)))
        (br $eachBlockRow))))
)
