;; ORB's pyramid levels and descriptors in WebAssembly SIMD, byte for byte OpenCV's (`orbShrink` and
;; `orbDescriptors` in brief.server.ts).
;;
;; OpenCV's ORB describes a keypoint on its pyramid level smoothed by a 7 x 7 Gaussian (sigma 2), with
;; 256 comparisons of two pixels of a pattern turned by the keypoint's angle. Its build for WebAssembly
;; has no SIMD, and that smoothing takes about half of ORB's time on a photo: ORB smooths a level held
;; inside the pyramid's larger image, and for such a part of an image OpenCV smooths in single floats,
;; not in its fixed point (`sepFilter2D` with the float taps of `getGaussianKernel`).
;;
;; `smooth`: the same float operations in the same order, four pixels at a time: along the rows the seven
;; taps one after the other, t0 x0 + t1 x1 + ... + t6 x6; along the columns the centre first, then each
;; pair of rows at the same distance added before its tap multiplies them; rounded half to even and
;; clipped to 0..255. Borders mirror about the edge pixel (BORDER_REFLECT_101), as the pyramid's border
;; holds the level mirrored so. WebAssembly rounds each float operation as C++ does and fuses none.
;; `describe`: each keypoint's 32 bytes. A pattern point (x, y) is turned to (x a - y b, x b + y a),
;; a = cos, b = sin of the angle (single floats, from JavaScript), rounded half to even, four points at
;; a time; bit j of a byte is set when the first pixel of its pair is darker than the second.
;; `npm run wasm` assembles it (wabt) into brief-wasm.ts; unit tests check the two agree with OpenCV.
(module
  ;; shared: growing it never detaches a buffer that JavaScript views
  (import "env" "memory" (memory 0 65536 shared))

  ;; Row $i of an image of $n rows (or column of $n columns), mirrored about the edge for -3 <= $i < $n + 3.
  (func $mirror (param $i i32) (param $n i32) (result i32)
    (if (i32.lt_s (local.get $i) (i32.const 0)) (then (return (i32.sub (i32.const 0) (local.get $i)))))
    (if (i32.ge_s (local.get $i) (local.get $n))
      (then (return (i32.sub (i32.sub (i32.shl (local.get $n) (i32.const 1)) (i32.const 2)) (local.get $i)))))
    (local.get $i))

  ;; Smooths the $w x $h image at $src (w, h >= 4) into $dst with the taps $t0 $t1 $t2 $t3 $t2 $t1 $t0.
  ;; $ring is scratch for eight rows after the row pass (8 x w4 floats, w4 = w rounded up to 4): row r
  ;; in slot r mod 8, each filtered once, as the column pass first needs it; $line is scratch for one row
  ;; as floats with its border ((w4 + 24) floats). $src needs 16 readable bytes past its end and $dst 3
  ;; writable ones (the last lanes of a row reach past it; the next row then overwrites them).
  (func (export "smooth") (param $src i32) (param $dst i32) (param $ring i32) (param $line i32)
        (param $w i32) (param $h i32) (param $t0 f32) (param $t1 f32) (param $t2 f32) (param $t3 f32)
    (local $w4 i32) (local $x i32) (local $y i32) (local $next i32) (local $last i32) (local $p i32) (local $q i32) (local $j i32)
    (local $k0 v128) (local $k1 v128) (local $k2 v128) (local $k3 v128) (local $v v128) (local $s v128)
    (local $r0 i32) (local $a1 i32) (local $b1 i32) (local $a2 i32) (local $b2 i32) (local $a3 i32) (local $b3 i32)
    (local.set $w4 (i32.and (i32.add (local.get $w) (i32.const 3)) (i32.const -4)))
    (local.set $k0 (f32x4.splat (local.get $t0)))
    (local.set $k1 (f32x4.splat (local.get $t1)))
    (local.set $k2 (f32x4.splat (local.get $t2)))
    (local.set $k3 (f32x4.splat (local.get $t3)))
    (local.set $next (i32.const 0))
    (local.set $y (i32.const 0))
    (block $done
      (loop $eachRow
        (br_if $done (i32.ge_u (local.get $y) (local.get $h)))
        ;; along the rows: every row up to y + 3 (the last row at the bottom)
        (local.set $last (i32.add (local.get $y) (i32.const 3)))
        (if (i32.ge_u (local.get $last) (local.get $h)) (then (local.set $last (i32.sub (local.get $h) (i32.const 1)))))
        (block $filtered
          (loop $filter
            (br_if $filtered (i32.gt_u (local.get $next) (local.get $last)))
            (local.set $p (i32.add (local.get $src) (i32.mul (local.get $next) (local.get $w))))
            ;; the row as floats from $line + 12 (three floats of border before it), sixteen bytes at a time
            (local.set $x (i32.const 0))
            (block $convDone
              (loop $conv
                (br_if $convDone (i32.ge_u (local.get $x) (local.get $w)))
                (local.set $v (v128.load (i32.add (local.get $p) (local.get $x))))
                (local.set $q (i32.add (local.get $line) (i32.shl (i32.add (local.get $x) (i32.const 3)) (i32.const 2))))
                (v128.store offset=0 (local.get $q)
                  (f32x4.convert_i32x4_u (i32x4.extend_low_i16x8_u (i16x8.extend_low_i8x16_u (local.get $v)))))
                (v128.store offset=16 (local.get $q)
                  (f32x4.convert_i32x4_u (i32x4.extend_high_i16x8_u (i16x8.extend_low_i8x16_u (local.get $v)))))
                (v128.store offset=32 (local.get $q)
                  (f32x4.convert_i32x4_u (i32x4.extend_low_i16x8_u (i16x8.extend_high_i8x16_u (local.get $v)))))
                (v128.store offset=48 (local.get $q)
                  (f32x4.convert_i32x4_u (i32x4.extend_high_i16x8_u (i16x8.extend_high_i8x16_u (local.get $v)))))
                (local.set $x (i32.add (local.get $x) (i32.const 16)))
                (br $conv)))
            ;; the border: x = -j is x = j, x = w - 1 + j is x = w - 1 - j
            (local.set $j (i32.const 1))
            (block $borderDone
              (loop $border
                (br_if $borderDone (i32.gt_u (local.get $j) (i32.const 3)))
                (f32.store (i32.add (local.get $line) (i32.shl (i32.sub (i32.const 3) (local.get $j)) (i32.const 2)))
                  (f32.convert_i32_u (i32.load8_u (i32.add (local.get $p) (local.get $j)))))
                (f32.store (i32.add (local.get $line) (i32.shl (i32.add (i32.add (local.get $w) (i32.const 2)) (local.get $j)) (i32.const 2)))
                  (f32.convert_i32_u (i32.load8_u (i32.add (local.get $p) (i32.sub (i32.sub (local.get $w) (i32.const 1)) (local.get $j))))))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (br $border)))
            ;; the taps one after the other, four pixels at a time, into the row's slot
            (local.set $q (call $slot (local.get $ring) (local.get $next) (local.get $w4)))
            (local.set $x (i32.const 0))
            (block $tapsDone
              (loop $taps
                (br_if $tapsDone (i32.ge_u (local.get $x) (local.get $w4)))
                (local.set $p (i32.add (local.get $line) (i32.shl (local.get $x) (i32.const 2))))
                (local.set $s (f32x4.mul (local.get $k0) (v128.load offset=0 (local.get $p))))
                (local.set $s (f32x4.add (local.get $s) (f32x4.mul (local.get $k1) (v128.load offset=4 (local.get $p)))))
                (local.set $s (f32x4.add (local.get $s) (f32x4.mul (local.get $k2) (v128.load offset=8 (local.get $p)))))
                (local.set $s (f32x4.add (local.get $s) (f32x4.mul (local.get $k3) (v128.load offset=12 (local.get $p)))))
                (local.set $s (f32x4.add (local.get $s) (f32x4.mul (local.get $k2) (v128.load offset=16 (local.get $p)))))
                (local.set $s (f32x4.add (local.get $s) (f32x4.mul (local.get $k1) (v128.load offset=20 (local.get $p)))))
                (local.set $s (f32x4.add (local.get $s) (f32x4.mul (local.get $k0) (v128.load offset=24 (local.get $p)))))
                (v128.store (i32.add (local.get $q) (i32.shl (local.get $x) (i32.const 2))) (local.get $s))
                (local.set $x (i32.add (local.get $x) (i32.const 4)))
                (br $taps)))
            (local.set $next (i32.add (local.get $next) (i32.const 1)))
            (br $filter)))
        ;; along the columns: the centre row, then each pair of rows at the same distance (mirrored at the ends)
        (local.set $r0 (call $slot (local.get $ring) (local.get $y) (local.get $w4)))
        (local.set $a1 (call $slot (local.get $ring) (call $mirror (i32.add (local.get $y) (i32.const 1)) (local.get $h)) (local.get $w4)))
        (local.set $b1 (call $slot (local.get $ring) (call $mirror (i32.sub (local.get $y) (i32.const 1)) (local.get $h)) (local.get $w4)))
        (local.set $a2 (call $slot (local.get $ring) (call $mirror (i32.add (local.get $y) (i32.const 2)) (local.get $h)) (local.get $w4)))
        (local.set $b2 (call $slot (local.get $ring) (call $mirror (i32.sub (local.get $y) (i32.const 2)) (local.get $h)) (local.get $w4)))
        (local.set $a3 (call $slot (local.get $ring) (call $mirror (i32.add (local.get $y) (i32.const 3)) (local.get $h)) (local.get $w4)))
        (local.set $b3 (call $slot (local.get $ring) (call $mirror (i32.sub (local.get $y) (i32.const 3)) (local.get $h)) (local.get $w4)))
        (local.set $q (i32.add (local.get $dst) (i32.mul (local.get $y) (local.get $w))))
        (local.set $x (i32.const 0))
        (block $pxDone
          (loop $px
            (br_if $pxDone (i32.ge_u (local.get $x) (local.get $w)))
            (local.set $p (i32.shl (local.get $x) (i32.const 2)))
            (local.set $s (f32x4.mul (local.get $k3) (v128.load (i32.add (local.get $r0) (local.get $p)))))
            (local.set $s (f32x4.add (local.get $s) (f32x4.mul (local.get $k2)
              (f32x4.add (v128.load (i32.add (local.get $a1) (local.get $p))) (v128.load (i32.add (local.get $b1) (local.get $p)))))))
            (local.set $s (f32x4.add (local.get $s) (f32x4.mul (local.get $k1)
              (f32x4.add (v128.load (i32.add (local.get $a2) (local.get $p))) (v128.load (i32.add (local.get $b2) (local.get $p)))))))
            (local.set $s (f32x4.add (local.get $s) (f32x4.mul (local.get $k0)
              (f32x4.add (v128.load (i32.add (local.get $a3) (local.get $p))) (v128.load (i32.add (local.get $b3) (local.get $p)))))))
            ;; rounded half to even, clipped to 0..255: four bytes
            (local.set $v (i32x4.trunc_sat_f32x4_s (f32x4.nearest (local.get $s))))
            (local.set $v (i16x8.narrow_i32x4_s (local.get $v) (local.get $v)))
            (local.set $v (i8x16.narrow_i16x8_u (local.get $v) (local.get $v)))
            (v128.store32_lane 0 (i32.add (local.get $q) (local.get $x)) (local.get $v))
            (local.set $x (i32.add (local.get $x) (i32.const 4)))
            (br $px)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $eachRow))))

  ;; Where row $r's floats lie in the ring of eight.
  (func $slot (param $ring i32) (param $r i32) (param $w4 i32) (result i32)
    (i32.add (local.get $ring) (i32.shl (i32.mul (i32.and (local.get $r) (i32.const 7)) (local.get $w4)) (i32.const 2))))

  ;; The descriptors of $n keypoints on the smoothed image at $img ($w pixels a row) into $out, 32 bytes
  ;; each. A keypoint at $kps is 16 bytes: its pixel's offset in the image (i32), a and b (f32), 4 unused.
  ;; $pattern holds 128 groups of four points, each as four x (f32) then four y (f32): the two pairs of
  ;; bits 2g and 2g + 1, first points in lanes 0 and 2.
  (func (export "describe") (param $img i32) (param $w i32) (param $kps i32) (param $n i32) (param $pattern i32) (param $out i32)
    (local $k i32) (local $c i32) (local $a v128) (local $b v128) (local $wv v128) (local $px v128) (local $py v128)
    (local $o v128) (local $g i32) (local $byte i32) (local $val i32) (local $bit i32)
    (local.set $wv (i32x4.splat (local.get $w)))
    (local.set $k (i32.const 0))
    (block $kpsDone
      (loop $eachKp
        (br_if $kpsDone (i32.ge_u (local.get $k) (local.get $n)))
        (local.set $c (i32.add (local.get $img) (i32.load (local.get $kps))))
        (local.set $a (f32x4.splat (f32.load offset=4 (local.get $kps))))
        (local.set $b (f32x4.splat (f32.load offset=8 (local.get $kps))))
        (local.set $g (local.get $pattern))
        (local.set $byte (i32.const 0))
        (block $bytesDone
          (loop $eachByte
            (br_if $bytesDone (i32.ge_u (local.get $byte) (i32.const 32)))
            (local.set $val (i32.const 0))
            (local.set $bit (i32.const 0))
            (block $groupsDone
              (loop $eachGroup
                (br_if $groupsDone (i32.ge_u (local.get $bit) (i32.const 8)))
                (local.set $px (v128.load offset=0 (local.get $g)))
                (local.set $py (v128.load offset=16 (local.get $g)))
                ;; offset = round(x b + y a) w + round(x a - y b)
                (local.set $o (i32x4.add
                  (i32x4.mul (local.get $wv) (i32x4.trunc_sat_f32x4_s (f32x4.nearest
                    (f32x4.add (f32x4.mul (local.get $px) (local.get $b)) (f32x4.mul (local.get $py) (local.get $a))))))
                  (i32x4.trunc_sat_f32x4_s (f32x4.nearest
                    (f32x4.sub (f32x4.mul (local.get $px) (local.get $a)) (f32x4.mul (local.get $py) (local.get $b)))))))
                (local.set $val (i32.or (local.get $val) (i32.shl
                  (i32.lt_u (i32.load8_u (i32.add (local.get $c) (i32x4.extract_lane 0 (local.get $o))))
                            (i32.load8_u (i32.add (local.get $c) (i32x4.extract_lane 1 (local.get $o)))))
                  (local.get $bit))))
                (local.set $val (i32.or (local.get $val) (i32.shl
                  (i32.lt_u (i32.load8_u (i32.add (local.get $c) (i32x4.extract_lane 2 (local.get $o))))
                            (i32.load8_u (i32.add (local.get $c) (i32x4.extract_lane 3 (local.get $o)))))
                  (i32.add (local.get $bit) (i32.const 1)))))
                (local.set $g (i32.add (local.get $g) (i32.const 32)))
                (local.set $bit (i32.add (local.get $bit) (i32.const 2)))
                (br $eachGroup)))
            (i32.store8 (i32.add (local.get $out) (local.get $byte)) (local.get $val))
            (local.set $byte (i32.add (local.get $byte) (i32.const 1)))
            (br $eachByte)))
        (local.set $out (i32.add (local.get $out) (i32.const 32)))
        (local.set $kps (i32.add (local.get $kps) (i32.const 16)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $eachKp))))

  ;; Resizes the $w x $h image at $src to $W x $H at $dst, byte for byte OpenCV's INTER_LINEAR_EXACT (the
  ;; fixed point of its bit-exact resize, which ORB uses for each pyramid level). Along the rows, output
  ;; pixel x is m0 s[o] + m1 s[o + 1] (8-bit taps summing to 256, 16-bit sums); along the columns, row y
  ;; is (n0 r[p] + n1 r[p + 1] + 2^15) >> 16. JavaScript computes the offsets and taps, the ends as OpenCV
  ;; clamps them (a tap of 256 on the first or last pixel). Eight pixels at a time: a group of eight
  ;; output pixels reads a 16-byte window of the row ($xwin: its start; $xsel: 32 bytes of swizzle indices
  ;; for s[o] then s[o + 1]; $xtaps: m0 then m1 as eight u16 each, 32 bytes), so the image must shrink or
  ;; be enlarged by less than 16 / 9 (JavaScript checks). $rows is scratch for the rows along the rows
  ;; ($h x W8 u16, W8 = W rounded up to 8); $yofs and $ytaps hold each output row's p and n0, n1 (i32 each).
  ;; $src needs 16 readable bytes past its end and $dst 8 writable ones.
  (func (export "shrink") (param $src i32) (param $w i32) (param $h i32) (param $dst i32) (param $W i32) (param $H i32)
        (param $xwin i32) (param $xsel i32) (param $xtaps i32) (param $yofs i32) (param $ytaps i32) (param $rows i32)
    (local $W8 i32) (local $y i32) (local $g i32) (local $groups i32) (local $p i32) (local $q i32) (local $win v128)
    (local $a v128) (local $b v128) (local $n0 v128) (local $n1 v128) (local $lo v128) (local $hi v128) (local $x i32)
    (local.set $W8 (i32.and (i32.add (local.get $W) (i32.const 7)) (i32.const -8)))
    (local.set $groups (i32.shr_u (local.get $W8) (i32.const 3)))
    ;; along the rows: every source row
    (local.set $y (i32.const 0))
    (block $rowsDone
      (loop $eachRow
        (br_if $rowsDone (i32.ge_u (local.get $y) (local.get $h)))
        (local.set $p (i32.add (local.get $src) (i32.mul (local.get $y) (local.get $w))))
        (local.set $q (i32.add (local.get $rows) (i32.shl (i32.mul (local.get $y) (local.get $W8)) (i32.const 1))))
        (local.set $g (i32.const 0))
        (block $groupsDone
          (loop $eachGroup
            (br_if $groupsDone (i32.ge_u (local.get $g) (local.get $groups)))
            (local.set $win (v128.load (i32.add (local.get $p) (i32.load (i32.add (local.get $xwin) (i32.shl (local.get $g) (i32.const 2)))))))
            (local.set $x (i32.add (local.get $xsel) (i32.shl (local.get $g) (i32.const 5))))
            (local.set $a (i16x8.extend_low_i8x16_u (i8x16.swizzle (local.get $win) (v128.load offset=0 (local.get $x)))))
            (local.set $b (i16x8.extend_low_i8x16_u (i8x16.swizzle (local.get $win) (v128.load offset=16 (local.get $x)))))
            (local.set $x (i32.add (local.get $xtaps) (i32.shl (local.get $g) (i32.const 5))))
            (v128.store (i32.add (local.get $q) (i32.shl (local.get $g) (i32.const 4)))
              (i16x8.add (i16x8.mul (local.get $a) (v128.load offset=0 (local.get $x)))
                         (i16x8.mul (local.get $b) (v128.load offset=16 (local.get $x)))))
            (local.set $g (i32.add (local.get $g) (i32.const 1)))
            (br $eachGroup)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $eachRow)))
    ;; along the columns
    (local.set $y (i32.const 0))
    (block $colsDone
      (loop $eachCol
        (br_if $colsDone (i32.ge_u (local.get $y) (local.get $H)))
        (local.set $p (i32.add (local.get $rows) (i32.shl (i32.mul (i32.load (i32.add (local.get $yofs) (i32.shl (local.get $y) (i32.const 2)))) (local.get $W8)) (i32.const 1))))
        (local.set $n0 (i16x8.splat (i32.load (i32.add (local.get $ytaps) (i32.shl (local.get $y) (i32.const 3))))))
        (local.set $n1 (i16x8.splat (i32.load offset=4 (i32.add (local.get $ytaps) (i32.shl (local.get $y) (i32.const 3))))))
        (local.set $q (i32.add (local.get $dst) (i32.mul (local.get $y) (local.get $W))))
        (local.set $x (i32.const 0))
        (block $pxDone
          (loop $px
            (br_if $pxDone (i32.ge_u (local.get $x) (local.get $W)))
            (local.set $a (v128.load (i32.add (local.get $p) (i32.shl (local.get $x) (i32.const 1)))))
            (local.set $b (v128.load (i32.add (i32.add (local.get $p) (i32.shl (local.get $W8) (i32.const 1))) (i32.shl (local.get $x) (i32.const 1)))))
            (local.set $lo (i32x4.shr_u (i32x4.add (i32x4.add (i32x4.extmul_low_i16x8_u (local.get $a) (local.get $n0))
                                                           (i32x4.extmul_low_i16x8_u (local.get $b) (local.get $n1))) (v128.const i32x4 32768 32768 32768 32768)) (i32.const 16)))
            (local.set $hi (i32x4.shr_u (i32x4.add (i32x4.add (i32x4.extmul_high_i16x8_u (local.get $a) (local.get $n0))
                                                           (i32x4.extmul_high_i16x8_u (local.get $b) (local.get $n1))) (v128.const i32x4 32768 32768 32768 32768)) (i32.const 16)))
            (local.set $a (i16x8.narrow_i32x4_u (local.get $lo) (local.get $hi)))
            (v128.store64_lane 0 (i32.add (local.get $q) (local.get $x)) (i8x16.narrow_i16x8_u (local.get $a) (local.get $a)))
            (local.set $x (i32.add (local.get $x) (i32.const 8)))
            (br $px)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $eachCol))))
)
