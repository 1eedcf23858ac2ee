;; The sums behind the detail check's correlations (`boxNcc` in detail.server.ts) in WebAssembly SIMD:
;; for a box of the reference and the photo at each shift of a range, the photo's sum, sum of squares
;; and sum of products with the reference, sixteen pixels at a time. The sums are integers, exact in any
;; order, and the correlation is then computed from them as before, so the detail check's figures are
;; the same to the last bit.
;; `npm run wasm` assembles it (wabt) into ncc-wasm.ts; a unit test checks the two agree.
(module
  ;; shared: growing it never detaches a buffer that JavaScript views
  (import "env" "memory" (memory 0 65536 shared))
  ;; $mask: 17 masks of 16 bytes, the k-th with its first k bytes 255 (a row's last, partial chunk)
  (global $mask (mut i32) (i32.const 0))
  (func (export "setup") (param $mask i32)
    (global.set $mask (local.get $mask)))
  ;; Sums over the $w x $h box whose top left is $a in one image and $b in another, both $stride bytes
  ;; a row: sum of a, sum of a * a and sum of a * b, added to the three i32 at $out. Every row is read
  ;; in chunks of 16 bytes, the last one masked (the images have 16 bytes to spare after them).
  (func $box (param $a i32) (param $b i32) (param $stride i32) (param $w i32) (param $h i32) (param $out i32)
    (local $y i32) (local $x i32) (local $s v128) (local $ss v128) (local $sp v128)
    (local $va v128) (local $vb v128) (local $lo v128) (local $hi v128) (local $m v128) (local $left i32)
    (local.set $s (v128.const i64x2 0 0))
    (local.set $ss (v128.const i64x2 0 0))
    (local.set $sp (v128.const i64x2 0 0))
    (local.set $y (i32.const 0))
    (block $rowsDone
      (loop $eachRow
        (br_if $rowsDone (i32.ge_u (local.get $y) (local.get $h)))
        (local.set $x (i32.const 0))
        (block $rowDone
          (loop $eachChunk
            (br_if $rowDone (i32.ge_u (local.get $x) (local.get $w)))
            (local.set $left (i32.sub (local.get $w) (local.get $x)))
            (local.set $m (v128.load (i32.add (global.get $mask)
              (i32.shl (select (i32.const 16) (local.get $left) (i32.gt_u (local.get $left) (i32.const 16))) (i32.const 4)))))
            (local.set $va (v128.and (v128.load (i32.add (local.get $a) (local.get $x))) (local.get $m)))
            (local.set $vb (v128.and (v128.load (i32.add (local.get $b) (local.get $x))) (local.get $m)))
            ;; sum: bytes added in pairs (16 bits), then in pairs again (32 bits)
            (local.set $s (i32x4.add (local.get $s)
              (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $va)))))
            (local.set $lo (i16x8.extend_low_i8x16_u (local.get $va)))
            (local.set $hi (i16x8.extend_high_i8x16_u (local.get $va)))
            (local.set $ss (i32x4.add (local.get $ss)
              (i32x4.add (i32x4.dot_i16x8_s (local.get $lo) (local.get $lo)) (i32x4.dot_i16x8_s (local.get $hi) (local.get $hi)))))
            (local.set $sp (i32x4.add (local.get $sp)
              (i32x4.add (i32x4.dot_i16x8_s (local.get $lo) (i16x8.extend_low_i8x16_u (local.get $vb)))
                         (i32x4.dot_i16x8_s (local.get $hi) (i16x8.extend_high_i8x16_u (local.get $vb))))))
            (local.set $x (i32.add (local.get $x) (i32.const 16)))
            (br $eachChunk)))
        (local.set $a (i32.add (local.get $a) (local.get $stride)))
        (local.set $b (i32.add (local.get $b) (local.get $stride)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $eachRow)))
    (i32.store (local.get $out) (i32.add (i32.load (local.get $out))
      (i32.add (i32.add (i32x4.extract_lane 0 (local.get $s)) (i32x4.extract_lane 1 (local.get $s)))
               (i32.add (i32x4.extract_lane 2 (local.get $s)) (i32x4.extract_lane 3 (local.get $s))))))
    (i32.store offset=4 (local.get $out) (i32.add (i32.load offset=4 (local.get $out))
      (i32.add (i32.add (i32x4.extract_lane 0 (local.get $ss)) (i32x4.extract_lane 1 (local.get $ss)))
               (i32.add (i32x4.extract_lane 2 (local.get $ss)) (i32x4.extract_lane 3 (local.get $ss))))))
    (i32.store offset=8 (local.get $out) (i32.add (i32.load offset=8 (local.get $out))
      (i32.add (i32.add (i32x4.extract_lane 0 (local.get $sp)) (i32x4.extract_lane 1 (local.get $sp)))
               (i32.add (i32x4.extract_lane 2 (local.get $sp)) (i32x4.extract_lane 3 (local.get $sp)))))))
  ;; The reference's box at ($x0, $y0) of the image at $ref and the photo at $photo, both $stride bytes a
  ;; row: at $out the reference's sum and sum of squares (two i32), then for each shift (dy from $dy0 to
  ;; $dy1, dx from $dx0 to $dx1, dx the inner) the photo's sum, sum of squares and sum of products with
  ;; the reference (three i32).
  (func (export "shiftSums") (param $photo i32) (param $ref i32) (param $stride i32) (param $x0 i32) (param $y0 i32)
        (param $w i32) (param $h i32) (param $dx0 i32) (param $dx1 i32) (param $dy0 i32) (param $dy1 i32) (param $out i32)
    (local $r i32) (local $dx i32) (local $dy i32) (local $o i32)
    (local.set $r (i32.add (local.get $ref) (i32.add (i32.mul (local.get $y0) (local.get $stride)) (local.get $x0))))
    ;; the reference against itself: its sum, its sum of squares (and again, discarded)
    (i64.store (local.get $out) (i64.const 0))
    (i32.store offset=8 (local.get $out) (i32.const 0))
    (call $box (local.get $r) (local.get $r) (local.get $stride) (local.get $w) (local.get $h) (local.get $out))
    (local.set $o (i32.add (local.get $out) (i32.const 8)))
    (local.set $dy (local.get $dy0))
    (block $dyDone
      (loop $eachDy
        (br_if $dyDone (i32.gt_s (local.get $dy) (local.get $dy1)))
        (local.set $dx (local.get $dx0))
        (block $dxDone
          (loop $eachDx
            (br_if $dxDone (i32.gt_s (local.get $dx) (local.get $dx1)))
            (i64.store (local.get $o) (i64.const 0))
            (i32.store offset=8 (local.get $o) (i32.const 0))
            (call $box
              (i32.add (local.get $photo) (i32.add (i32.mul (i32.add (local.get $y0) (local.get $dy)) (local.get $stride))
                (i32.add (local.get $x0) (local.get $dx))))
              (local.get $r) (local.get $stride) (local.get $w) (local.get $h) (local.get $o))
            (local.set $o (i32.add (local.get $o) (i32.const 12)))
            (local.set $dx (i32.add (local.get $dx) (i32.const 1)))
            (br $eachDx)))
        (local.set $dy (i32.add (local.get $dy) (i32.const 1)))
        (br $eachDy))))
)
