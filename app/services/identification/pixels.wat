;; Pixel kernels of the engine in WebAssembly SIMD, sixteen or eight pixels at a time, byte for byte the
;; code they replace.
;;
;; `gray`: an RGB image's grayscale, (77 R + 150 G + 29 B) >> 8 (`toGray` in features.server.ts).
;;
;; `blur`: the engine's Gaussian blurs, byte for byte OpenCV's (`cv.GaussianBlur` of an 8-bit image): the
;; detail check's of a grayscale image and the colour check's of a colour one. For 8-bit images OpenCV blurs in fixed point, exactly and the same on every platform: a kernel of
;; integer taps that sum to 256, applied along the rows (the products and sums exact in 16 bits), then
;; along the columns (exact in 32 bits), rounded once at the end: (sum + 32768) >> 16. The same integers
;; in eight lanes at a time give the same bytes, several times sooner than OpenCV's build for
;; WebAssembly, which has no SIMD. The channels of a colour image are interleaved: a lane's taps along
;; the row lie $c bytes apart, so each lane stays in its channel. The border is replicated ($reflect 0:
;; OpenCV's BORDER_REPLICATE) or mirrored about the edge pixel ($reflect 1: BORDER_REFLECT_101, OpenCV's
;; default), for images larger than the kernel's radius.
;; `enlarge`: an RGB image enlarged, byte for byte as libvips enlarges it for sharp's resize (an affine
;; transform with its bicubic, Catmull-Rom, interpolator for 8-bit images): each output pixel is made
;; of a 4 x 4 window of the source, first along the rows with four integer taps (1/4096ths, chosen by
;; the position's 1/64th of a pixel) and rounded, (sum + 2048) >> 12, then along the columns with four
;; more, rounded again and clipped to 0..255. The positions and taps come from JavaScript
;; (`enlargeRGB` in pixels.server.ts); here the row pass takes one output pixel's three channels at
;; a time (a 12-byte window of four source pixels, regrouped by channel, two dot products), and the
;; column pass works on the rows it keeps in a ring of eight.
;; `npm run wasm` assembles it (wabt) into pixels-wasm.ts; unit tests check the two agree.
(module
  ;; shared: growing it never detaches a buffer that JavaScript views
  (import "env" "memory" (memory 0 65536 shared))
;; Blurs the $w x $h image of $c interleaved channels at $src into $dst. $taps holds the $n taps
  ;; (odd $n), each as eight i16 lanes (16 bytes); $rows is scratch for the row pass (2 bytes a byte of
  ;; the image, and 16 more), $line scratch for one row with its replicated border
  ;; (($w + $n + 16) * $c bytes). $dst needs 8 bytes more than the image: a row's last lanes are
  ;; written past its end (the next row then overwrites them).
  (func (export "blur") (param $src i32) (param $dst i32) (param $rows i32) (param $line i32)
        (param $taps i32) (param $n i32) (param $w i32) (param $h i32) (param $c i32) (param $reflect i32)
    (local $r i32) (local $x i32) (local $y i32) (local $i i32) (local $yy i32)
    (local $acc v128) (local $lo v128) (local $hi v128) (local $v v128) (local $k v128)
    (local $p i32) (local $q i32) (local $o i32) (local $wb i32) (local $rb i32) (local $e i32)
    (local.set $r (i32.shr_u (local.get $n) (i32.const 1)))
    (local.set $wb (i32.mul (local.get $w) (local.get $c)))
    (local.set $rb (i32.mul (local.get $r) (local.get $c)))
    ;; along the rows: each row copied between its borders, then eight bytes at a time
    (local.set $y (i32.const 0))
    (block $rowsDone
      (loop $eachRow
        (br_if $rowsDone (i32.ge_u (local.get $y) (local.get $h)))
        (local.set $p (i32.add (local.get $src) (i32.mul (local.get $y) (local.get $wb))))
        ;; the border: r pixels before the row and r + 16 after it (the last lanes' reach)
        (local.set $i (i32.const 0))
        (block $padDone
          (loop $pad
            (br_if $padDone (i32.ge_u (local.get $i) (i32.add (local.get $r) (i32.const 16))))
            (if (i32.lt_u (local.get $i) (local.get $r))
              (then
                ;; before: x = i - r, replicated (0) or mirrored (r - i)
                (local.set $e (select (i32.sub (local.get $r) (local.get $i)) (i32.const 0) (local.get $reflect)))
                (local.set $e (select (i32.sub (local.get $w) (i32.const 1)) (local.get $e)
                  (i32.ge_s (local.get $e) (local.get $w))))
                (memory.copy (i32.add (local.get $line) (i32.mul (local.get $i) (local.get $c)))
                  (i32.add (local.get $p) (i32.mul (local.get $e) (local.get $c))) (local.get $c))))
            ;; after: x = w + i, replicated (w - 1) or mirrored (w - 2 - i)
            (local.set $e (select (i32.sub (i32.sub (local.get $w) (i32.const 2)) (local.get $i))
              (i32.sub (local.get $w) (i32.const 1)) (local.get $reflect)))
            (local.set $e (select (i32.const 0) (local.get $e) (i32.lt_s (local.get $e) (i32.const 0))))
            (memory.copy
              (i32.add (i32.add (local.get $line) (i32.add (local.get $rb) (local.get $wb))) (i32.mul (local.get $i) (local.get $c)))
              (i32.add (local.get $p) (i32.mul (local.get $e) (local.get $c))) (local.get $c))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $pad)))
        (memory.copy (i32.add (local.get $line) (local.get $rb)) (local.get $p) (local.get $wb))
        (local.set $o (i32.add (local.get $rows) (i32.shl (i32.mul (local.get $y) (local.get $wb)) (i32.const 1))))
        (local.set $x (i32.const 0))
        (block $xDone
          (loop $eachX
            (br_if $xDone (i32.ge_u (local.get $x) (local.get $wb)))
            (local.set $acc (v128.const i64x2 0 0))
            (local.set $q (i32.add (local.get $line) (local.get $x)))
            (local.set $i (i32.const 0))
            (block $tapsDone
              (loop $eachTap
                (br_if $tapsDone (i32.ge_u (local.get $i) (local.get $n)))
                (local.set $acc (i16x8.add (local.get $acc)
                  (i16x8.mul (v128.load8x8_u (local.get $q))
                             (v128.load (i32.add (local.get $taps) (i32.shl (local.get $i) (i32.const 4)))))))
                (local.set $q (i32.add (local.get $q) (local.get $c)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $eachTap)))
            (v128.store (i32.add (local.get $o) (i32.shl (local.get $x) (i32.const 1))) (local.get $acc))
            (local.set $x (i32.add (local.get $x) (i32.const 8)))
            (br $eachX)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $eachRow)))
    ;; along the columns: eight bytes at a time, the rows above and below the image replicated
    (local.set $y (i32.const 0))
    (block $colsDone
      (loop $eachOut
        (br_if $colsDone (i32.ge_u (local.get $y) (local.get $h)))
        (local.set $o (i32.add (local.get $dst) (i32.mul (local.get $y) (local.get $wb))))
        (local.set $x (i32.const 0))
        (block $xDone2
          (loop $eachX2
            (br_if $xDone2 (i32.ge_u (local.get $x) (local.get $wb)))
            (local.set $lo (v128.const i64x2 0 0))
            (local.set $hi (v128.const i64x2 0 0))
            (local.set $i (i32.const 0))
            (block $tapsDone2
              (loop $eachTap2
                (br_if $tapsDone2 (i32.ge_u (local.get $i) (local.get $n)))
                ;; the row y + i - r: above the image, row 0 or its mirror; below it, row h - 1 or its mirror
                (local.set $yy (i32.sub (i32.add (local.get $y) (local.get $i)) (local.get $r)))
                (if (i32.lt_s (local.get $yy) (i32.const 0))
                  (then (local.set $yy (select (i32.sub (i32.const 0) (local.get $yy)) (i32.const 0) (local.get $reflect)))))
                (if (i32.ge_s (local.get $yy) (local.get $h))
                  (then (local.set $yy (select (i32.sub (i32.sub (i32.shl (local.get $h) (i32.const 1)) (i32.const 2)) (local.get $yy))
                    (i32.sub (local.get $h) (i32.const 1)) (local.get $reflect)))))
                (local.set $yy (select (i32.const 0) (local.get $yy) (i32.lt_s (local.get $yy) (i32.const 0))))
                (local.set $yy (select (i32.sub (local.get $h) (i32.const 1)) (local.get $yy)
                  (i32.ge_s (local.get $yy) (local.get $h))))
                (local.set $v (v128.load (i32.add (local.get $rows)
                  (i32.shl (i32.add (i32.mul (local.get $yy) (local.get $wb)) (local.get $x)) (i32.const 1)))))
                (local.set $k (v128.load (i32.add (local.get $taps) (i32.shl (local.get $i) (i32.const 4)))))
                (local.set $lo (i32x4.add (local.get $lo) (i32x4.extmul_low_i16x8_u (local.get $v) (local.get $k))))
                (local.set $hi (i32x4.add (local.get $hi) (i32x4.extmul_high_i16x8_u (local.get $v) (local.get $k))))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $eachTap2)))
            ;; rounded once: (sum + 32768) >> 16, at most 255
            (local.set $lo (i32x4.shr_u (i32x4.add (local.get $lo) (v128.const i32x4 32768 32768 32768 32768)) (i32.const 16)))
            (local.set $hi (i32x4.shr_u (i32x4.add (local.get $hi) (v128.const i32x4 32768 32768 32768 32768)) (i32.const 16)))
            (local.set $v (i16x8.narrow_i32x4_u (local.get $lo) (local.get $hi)))
            (v128.store64_lane 0 (i32.add (local.get $o) (local.get $x)) (i8x16.narrow_i16x8_u (local.get $v) (local.get $v)))
            (local.set $x (i32.add (local.get $x) (i32.const 8)))
            (br $eachX2)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $eachOut))))
  ;; The grayscale of the $n RGB pixels at $src into $dst: sixteen pixels (48 bytes) at a time, their R, G
  ;; and B bytes gathered by shuffles, (77 R + 150 G + 29 B) >> 8 in 16-bit lanes (at most 65280). The
  ;; last, partial sixteen read up to 47 bytes past the image and write up to 15 past its grayscale.
  (func (export "gray") (param $src i32) (param $dst i32) (param $n i32)
    (local $a v128) (local $b v128) (local $c v128) (local $r v128) (local $g v128) (local $bl v128)
    (local $lo v128) (local $hi v128) (local $i i32)
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $a (v128.load (local.get $src)))
        (local.set $b (v128.load offset=16 (local.get $src)))
        (local.set $c (v128.load offset=32 (local.get $src)))
        ;; bytes 0, 3 .. 45 (R), 1, 4 .. 46 (G), 2, 5 .. 47 (B): the first 11 (or 10) from a and b, the rest from c
        (local.set $r (i8x16.shuffle 0 1 2 3 4 5 6 7 8 9 10 17 20 23 26 29
          (i8x16.shuffle 0 3 6 9 12 15 18 21 24 27 30 0 0 0 0 0 (local.get $a) (local.get $b)) (local.get $c)))
        (local.set $g (i8x16.shuffle 0 1 2 3 4 5 6 7 8 9 10 18 21 24 27 30
          (i8x16.shuffle 1 4 7 10 13 16 19 22 25 28 31 0 0 0 0 0 (local.get $a) (local.get $b)) (local.get $c)))
        (local.set $bl (i8x16.shuffle 0 1 2 3 4 5 6 7 8 9 16 19 22 25 28 31
          (i8x16.shuffle 2 5 8 11 14 17 20 23 26 29 0 0 0 0 0 0 (local.get $a) (local.get $b)) (local.get $c)))
        (local.set $lo (i16x8.shr_u
          (i16x8.add (i16x8.add
            (i16x8.mul (i16x8.extend_low_i8x16_u (local.get $r)) (v128.const i16x8 77 77 77 77 77 77 77 77))
            (i16x8.mul (i16x8.extend_low_i8x16_u (local.get $g)) (v128.const i16x8 150 150 150 150 150 150 150 150)))
            (i16x8.mul (i16x8.extend_low_i8x16_u (local.get $bl)) (v128.const i16x8 29 29 29 29 29 29 29 29)))
          (i32.const 8)))
        (local.set $hi (i16x8.shr_u
          (i16x8.add (i16x8.add
            (i16x8.mul (i16x8.extend_high_i8x16_u (local.get $r)) (v128.const i16x8 77 77 77 77 77 77 77 77))
            (i16x8.mul (i16x8.extend_high_i8x16_u (local.get $g)) (v128.const i16x8 150 150 150 150 150 150 150 150)))
            (i16x8.mul (i16x8.extend_high_i8x16_u (local.get $bl)) (v128.const i16x8 29 29 29 29 29 29 29 29)))
          (i32.const 8)))
        (v128.store (local.get $dst) (i8x16.narrow_i16x8_u (local.get $lo) (local.get $hi)))
        (local.set $src (i32.add (local.get $src) (i32.const 48)))
        (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $each))))

  ;; Enlarges the source at $src ($h rows of $rowBytes: each row with three copies of its first pixel
  ;; before it and of its last after it, and 16 bytes after the last row) into $dst ($W x $H, RGB; 16
  ;; bytes more than the image are written). Per output column: $colOff, the byte offset in a source
  ;; row of its window's first pixel (i32), and $colTaps, its four taps twice (i16x8); per output row:
  ;; $rowFirst, the padded index of its window's first row (i32; padded row p is source row
  ;; min(max(p - 3, 0), h - 1), whose byte offset $rowMap gives), and $rowTaps, its four taps (i32
  ;; each). $ring: eight rows of the row pass, 16 bytes an output pixel, plus 64 bytes.
  (func (export "enlarge") (param $src i32) (param $colOff i32) (param $colTaps i32) (param $rowFirst i32)
        (param $rowTaps i32) (param $rowMap i32) (param $ring i32) (param $dst i32) (param $W i32) (param $H i32)
    (local $x i32) (local $y i32) (local $done i32) (local $row i32)
    (local $q i32) (local $o i32) (local $slotBytes i32) (local $first i32)
    (local $v v128) (local $k v128) (local $d1 v128) (local $d2 v128)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local $r0 i32) (local $r1 i32) (local $r2 i32) (local $r3 i32)
    (local $px0 v128) (local $px1 v128) (local $px2 v128) (local $px3 v128)
    (local.set $slotBytes (i32.shl (local.get $W) (i32.const 4)))
    (local.set $done (i32.const -1))
    (local.set $y (i32.const 0))
    (block $rowsDone
      (loop $eachRow
        (br_if $rowsDone (i32.ge_u (local.get $y) (local.get $H)))
        (local.set $first (i32.load (i32.add (local.get $rowFirst) (i32.shl (local.get $y) (i32.const 2)))))
        ;; the row pass of the window's rows not made yet (rows below the window are never needed again)
        (if (i32.lt_s (local.get $done) (i32.sub (local.get $first) (i32.const 1)))
          (then (local.set $done (i32.sub (local.get $first) (i32.const 1)))))
        (block $madeAll
          (loop $make
            (br_if $madeAll (i32.ge_s (local.get $done) (i32.add (local.get $first) (i32.const 3))))
            (local.set $done (i32.add (local.get $done) (i32.const 1)))
            (local.set $row (i32.add (local.get $src)
              (i32.load (i32.add (local.get $rowMap) (i32.shl (local.get $done) (i32.const 2))))))
            (local.set $q (i32.add (local.get $ring)
              (i32.mul (i32.and (local.get $done) (i32.const 7)) (local.get $slotBytes))))
            (local.set $x (i32.const 0))
            (block $xDone
              (loop $eachX
                (br_if $xDone (i32.ge_u (local.get $x) (local.get $W)))
                ;; four source pixels, R R R R G G G G B B B B 0 0 0 0
                (local.set $v (i8x16.shuffle 0 3 6 9 1 4 7 10 2 5 8 11 16 16 16 16
                  (v128.load (i32.add (local.get $row)
                    (i32.load (i32.add (local.get $colOff) (i32.shl (local.get $x) (i32.const 2))))))
                  (v128.const i32x4 0 0 0 0)))
                (local.set $k (v128.load (i32.add (local.get $colTaps) (i32.shl (local.get $x) (i32.const 4)))))
                ;; [c0 R0 + c1 R1, c2 R2 + c3 R3, same for G], [same for B, 0, 0]
                (local.set $d1 (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_u (local.get $v)) (local.get $k)))
                (local.set $d2 (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_u (local.get $v)) (local.get $k)))
                (v128.store (local.get $q)
                  (i32x4.shr_s
                    (i32x4.add
                      (i32x4.add
                        (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (local.get $d1) (local.get $d2))
                        (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31 (local.get $d1) (local.get $d2)))
                      (v128.const i32x4 2048 2048 2048 2048))
                    (i32.const 12)))
                (local.set $q (i32.add (local.get $q) (i32.const 16)))
                (local.set $x (i32.add (local.get $x) (i32.const 1)))
                (br $eachX)))
            (br $make)))
        ;; the column pass: four pixels at a time, written as 12 bytes (the next four overwrite the rest)
        (local.set $o (i32.add (local.get $rowTaps) (i32.shl (local.get $y) (i32.const 4))))
        (local.set $c0 (i32x4.splat (i32.load (local.get $o))))
        (local.set $c1 (i32x4.splat (i32.load offset=4 (local.get $o))))
        (local.set $c2 (i32x4.splat (i32.load offset=8 (local.get $o))))
        (local.set $c3 (i32x4.splat (i32.load offset=12 (local.get $o))))
        (local.set $r0 (i32.add (local.get $ring) (i32.mul (i32.and (local.get $first) (i32.const 7)) (local.get $slotBytes))))
        (local.set $r1 (i32.add (local.get $ring) (i32.mul (i32.and (i32.add (local.get $first) (i32.const 1)) (i32.const 7)) (local.get $slotBytes))))
        (local.set $r2 (i32.add (local.get $ring) (i32.mul (i32.and (i32.add (local.get $first) (i32.const 2)) (i32.const 7)) (local.get $slotBytes))))
        (local.set $r3 (i32.add (local.get $ring) (i32.mul (i32.and (i32.add (local.get $first) (i32.const 3)) (i32.const 7)) (local.get $slotBytes))))
        (local.set $q (i32.add (local.get $dst) (i32.mul (i32.mul (local.get $y) (local.get $W)) (i32.const 3))))
        (local.set $x (i32.const 0))
        (block $colsDone
          (loop $eachCol
            (br_if $colsDone (i32.ge_u (local.get $x) (local.get $W)))
            (local.set $o (i32.shl (local.get $x) (i32.const 4)))
            (local.set $px0 (call $column (local.get $r0) (local.get $r1) (local.get $r2) (local.get $r3) (local.get $o)
              (local.get $c0) (local.get $c1) (local.get $c2) (local.get $c3)))
            (local.set $px1 (call $column (local.get $r0) (local.get $r1) (local.get $r2) (local.get $r3) (i32.add (local.get $o) (i32.const 16))
              (local.get $c0) (local.get $c1) (local.get $c2) (local.get $c3)))
            (local.set $px2 (call $column (local.get $r0) (local.get $r1) (local.get $r2) (local.get $r3) (i32.add (local.get $o) (i32.const 32))
              (local.get $c0) (local.get $c1) (local.get $c2) (local.get $c3)))
            (local.set $px3 (call $column (local.get $r0) (local.get $r1) (local.get $r2) (local.get $r3) (i32.add (local.get $o) (i32.const 48))
              (local.get $c0) (local.get $c1) (local.get $c2) (local.get $c3)))
            ;; clipped to 0..255 by the saturating narrowings; R G B of each pixel, its fourth lane dropped
            (v128.store (local.get $q)
              (i8x16.shuffle 0 1 2 4 5 6 8 9 10 12 13 14 15 15 15 15
                (i8x16.narrow_i16x8_u
                  (i16x8.narrow_i32x4_s (local.get $px0) (local.get $px1))
                  (i16x8.narrow_i32x4_s (local.get $px2) (local.get $px3)))
                (v128.const i32x4 0 0 0 0)))
            (local.set $q (i32.add (local.get $q) (i32.const 12)))
            (local.set $x (i32.add (local.get $x) (i32.const 4)))
            (br $eachCol)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $eachRow))))

  ;; One output pixel of the column pass: (c0 a + c1 b + c2 c + c3 d + 2048) >> 12, lanes R G B 0.
  (func $column (param $r0 i32) (param $r1 i32) (param $r2 i32) (param $r3 i32) (param $o i32)
        (param $c0 v128) (param $c1 v128) (param $c2 v128) (param $c3 v128) (result v128)
    (i32x4.shr_s
      (i32x4.add
        (i32x4.add
          (i32x4.add
            (i32x4.mul (v128.load (i32.add (local.get $r0) (local.get $o))) (local.get $c0))
            (i32x4.mul (v128.load (i32.add (local.get $r1) (local.get $o))) (local.get $c1)))
          (i32x4.add
            (i32x4.mul (v128.load (i32.add (local.get $r2) (local.get $o))) (local.get $c2))
            (i32x4.mul (v128.load (i32.add (local.get $r3) (local.get $o))) (local.get $c3))))
        (v128.const i32x4 2048 2048 2048 2048))
      (i32.const 12)))
)
