;; The quick RANSAC inlier count (`quickFit` in geometry.server.ts) in WebAssembly: the same draws of
;; mulberry32 (seed 0x5eed), the same orientation test of each sample, the same Gaussian elimination of
;; its homography, the same residuals and the same adaptive stop, operation for operation in 64-bit
;; floats (WebAssembly rounds each operation as JavaScript does and fuses none), so the count is the
;; one JavaScript finds, to the last inlier. The residuals are found two correspondences at a time (SIMD).
;; `npm run wasm` assembles it (wabt) into ransac-wasm.ts; a unit test (ransac-count.test.ts) holds
;; the kernel to the JavaScript it replaced on generated correspondences.
(module
  ;; shared: growing it never detaches a buffer that JavaScript views
  (import "env" "memory" (memory 0 65536 shared))
  ;; JavaScript's own Math.pow and Math.log: the adaptive stop's iteration count is computed by them
  (import "env" "pow" (func $pow (param f64 f64) (result f64)))
  (import "env" "log" (func $log (param f64) (result f64)))

  ;; mulberry32's next state and its value in [0, 1) (app/utils/random.ts)
  (func $value (param $t i32) (result f64)
    (local.set $t (i32.mul (i32.xor (local.get $t) (i32.shr_u (local.get $t) (i32.const 15)))
                           (i32.or (local.get $t) (i32.const 1))))
    (local.set $t (i32.xor (local.get $t)
      (i32.add (local.get $t)
        (i32.mul (i32.xor (local.get $t) (i32.shr_u (local.get $t) (i32.const 7)))
                 (i32.or (local.get $t) (i32.const 61))))))
    (f64.div (f64.convert_i32_u (i32.xor (local.get $t) (i32.shr_u (local.get $t) (i32.const 14))))
             (f64.const 4294967296)))

  ;; orientation of the triangle of points i, j, k of the coordinates at $xs, $ys (f64 each)
  (func $orient (param $xs i32) (param $ys i32) (param $i i32) (param $j i32) (param $k i32) (result f64)
    (local $xi f64) (local $yi f64)
    (local.set $xi (f64.load (i32.add (local.get $xs) (i32.shl (local.get $i) (i32.const 3)))))
    (local.set $yi (f64.load (i32.add (local.get $ys) (i32.shl (local.get $i) (i32.const 3)))))
    (f64.sub
      (f64.mul
        (f64.sub (f64.load (i32.add (local.get $xs) (i32.shl (local.get $j) (i32.const 3)))) (local.get $xi))
        (f64.sub (f64.load (i32.add (local.get $ys) (i32.shl (local.get $k) (i32.const 3)))) (local.get $yi)))
      (f64.mul
        (f64.sub (f64.load (i32.add (local.get $ys) (i32.shl (local.get $j) (i32.const 3)))) (local.get $yi))
        (f64.sub (f64.load (i32.add (local.get $xs) (i32.shl (local.get $k) (i32.const 3)))) (local.get $xi)))))

  ;; whether the triangle i, j, k turns the other way in the destination (its orientations' product < 0)
  (func $flips (param $x i32) (param $y i32) (param $u i32) (param $v i32) (param $i i32) (param $j i32) (param $k i32) (result i32)
    (f64.lt
      (f64.mul (call $orient (local.get $x) (local.get $y) (local.get $i) (local.get $j) (local.get $k))
               (call $orient (local.get $u) (local.get $v) (local.get $i) (local.get $j) (local.get $k)))
      (f64.const 0)))

  ;; The homography (h33 = 1) through the 4 correspondences whose indices are the four i32 at $idx, into
  ;; the nine f64 at $h, by Gaussian elimination with partial pivoting of the 8 x 9 matrix at $a; 0 when
  ;; degenerate (`homography4`).
  (func $homography4 (param $x i32) (param $y i32) (param $u i32) (param $v i32) (param $idx i32) (param $a i32) (param $h i32) (result i32)
    (local $r i32) (local $c i32) (local $k i32) (local $piv i32) (local $o i32) (local $n i32)
    (local $px f64) (local $py f64) (local $pu f64) (local $pv f64) (local $t f64) (local $f f64)
    (local $c8 i32) (local $rc i32) (local $rr i32) (local $best f64) (local $diag f64)
    (local.set $r (i32.const 0))
    (loop $rows
      (local.set $n (i32.shl (i32.load (i32.add (local.get $idx) (i32.shl (local.get $r) (i32.const 2)))) (i32.const 3)))
      (local.set $px (f64.load (i32.add (local.get $x) (local.get $n))))
      (local.set $py (f64.load (i32.add (local.get $y) (local.get $n))))
      (local.set $pu (f64.load (i32.add (local.get $u) (local.get $n))))
      (local.set $pv (f64.load (i32.add (local.get $v) (local.get $n))))
      (local.set $o (i32.add (local.get $a) (i32.mul (local.get $r) (i32.const 144))))
      (f64.store offset=0 (local.get $o) (local.get $px))
      (f64.store offset=8 (local.get $o) (local.get $py))
      (f64.store offset=16 (local.get $o) (f64.const 1))
      (f64.store offset=24 (local.get $o) (f64.const 0))
      (f64.store offset=32 (local.get $o) (f64.const 0))
      (f64.store offset=40 (local.get $o) (f64.const 0))
      (f64.store offset=48 (local.get $o) (f64.mul (f64.neg (local.get $px)) (local.get $pu)))
      (f64.store offset=56 (local.get $o) (f64.mul (f64.neg (local.get $py)) (local.get $pu)))
      (f64.store offset=64 (local.get $o) (local.get $pu))
      (f64.store offset=72 (local.get $o) (f64.const 0))
      (f64.store offset=80 (local.get $o) (f64.const 0))
      (f64.store offset=88 (local.get $o) (f64.const 0))
      (f64.store offset=96 (local.get $o) (local.get $px))
      (f64.store offset=104 (local.get $o) (local.get $py))
      (f64.store offset=112 (local.get $o) (f64.const 1))
      (f64.store offset=120 (local.get $o) (f64.mul (f64.neg (local.get $px)) (local.get $pv)))
      (f64.store offset=128 (local.get $o) (f64.mul (f64.neg (local.get $py)) (local.get $pv)))
      (f64.store offset=136 (local.get $o) (local.get $pv))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br_if $rows (i32.lt_u (local.get $r) (i32.const 4))))
    ;; rows are 72 bytes: $rc is row c, $rr row r (or the pivot's), and $c8 column c's offset in a row
    (local.set $c (i32.const 0))
    (loop $cols
      (local.set $c8 (i32.shl (local.get $c) (i32.const 3)))
      (local.set $rc (i32.add (local.get $a) (i32.mul (local.get $c) (i32.const 72))))
      (local.set $piv (local.get $c))
      (local.set $best (f64.abs (f64.load (i32.add (local.get $rc) (local.get $c8)))))
      (local.set $r (i32.add (local.get $c) (i32.const 1)))
      (block $pivDone
        (loop $pivs
          (br_if $pivDone (i32.ge_u (local.get $r) (i32.const 8)))
          (local.set $t (f64.abs (f64.load (i32.add (i32.add (local.get $a) (i32.mul (local.get $r) (i32.const 72))) (local.get $c8)))))
          (if (f64.gt (local.get $t) (local.get $best))
            (then (local.set $piv (local.get $r)) (local.set $best (local.get $t))))
          (local.set $r (i32.add (local.get $r) (i32.const 1)))
          (br $pivs)))
      (if (f64.lt (local.get $best) (f64.const 1e-10))
        (then (return (i32.const 0))))
      (if (i32.ne (local.get $piv) (local.get $c))
        (then
          (local.set $rr (i32.add (local.get $a) (i32.mul (local.get $piv) (i32.const 72))))
          (local.set $k (local.get $c8))
          (loop $swap
            (local.set $t (f64.load (i32.add (local.get $rc) (local.get $k))))
            (f64.store (i32.add (local.get $rc) (local.get $k)) (f64.load (i32.add (local.get $rr) (local.get $k))))
            (f64.store (i32.add (local.get $rr) (local.get $k)) (local.get $t))
            (local.set $k (i32.add (local.get $k) (i32.const 8)))
            (br_if $swap (i32.lt_u (local.get $k) (i32.const 72))))))
      (local.set $diag (f64.load (i32.add (local.get $rc) (local.get $c8))))
      (local.set $r (i32.const 0))
      (loop $elim
        (block $next
          (br_if $next (i32.eq (local.get $r) (local.get $c)))
          (local.set $rr (i32.add (local.get $a) (i32.mul (local.get $r) (i32.const 72))))
          (local.set $f (f64.div (f64.load (i32.add (local.get $rr) (local.get $c8))) (local.get $diag)))
          (br_if $next (f64.eq (local.get $f) (f64.const 0)))
          (local.set $k (local.get $c8))
          (loop $sub
            (f64.store (i32.add (local.get $rr) (local.get $k))
              (f64.sub (f64.load (i32.add (local.get $rr) (local.get $k)))
                       (f64.mul (local.get $f) (f64.load (i32.add (local.get $rc) (local.get $k))))))
            (local.set $k (i32.add (local.get $k) (i32.const 8)))
            (br_if $sub (i32.lt_u (local.get $k) (i32.const 72)))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br_if $elim (i32.lt_u (local.get $r) (i32.const 8))))
      (local.set $c (i32.add (local.get $c) (i32.const 1)))
      (br_if $cols (i32.lt_u (local.get $c) (i32.const 8))))
    (local.set $c (i32.const 0))
    (loop $solve
      (local.set $rc (i32.add (local.get $a) (i32.mul (local.get $c) (i32.const 72))))
      (f64.store (i32.add (local.get $h) (i32.shl (local.get $c) (i32.const 3)))
        (f64.div (f64.load offset=64 (local.get $rc))
                 (f64.load (i32.add (local.get $rc) (i32.shl (local.get $c) (i32.const 3))))))
      (local.set $c (i32.add (local.get $c) (i32.const 1)))
      (br_if $solve (i32.lt_u (local.get $c) (i32.const 8))))
    (f64.store offset=64 (local.get $h) (f64.const 1))
    (i32.const 1))

  ;; How many of the $m correspondences (x, y) -> (u, v) lie within sqrt($thr) of where the homography at
  ;; $h sends them: (h0 x + h1 y + h2) w - u and (h3 x + h4 y + h5) w - v, w = 1 / (h6 x + h7 y + 1).
  ;; Two at a time: the coordinates are 16 bytes aligned, and each array has room for one more.
  (func $inliers (param $x i32) (param $y i32) (param $u i32) (param $v i32) (param $m i32) (param $h i32) (param $thr f64) (result i32)
    (local $i i32) (local $o i32) (local $count v128) (local $px v128) (local $py v128) (local $w v128)
    (local $dx v128) (local $dy v128) (local $in v128)
    (local $h0 v128) (local $h1 v128) (local $h2 v128) (local $h3 v128) (local $h4 v128) (local $h5 v128)
    (local $h6 v128) (local $h7 v128) (local $one v128) (local $t v128)
    (local.set $h0 (v128.load64_splat offset=0 (local.get $h)))
    (local.set $h1 (v128.load64_splat offset=8 (local.get $h)))
    (local.set $h2 (v128.load64_splat offset=16 (local.get $h)))
    (local.set $h3 (v128.load64_splat offset=24 (local.get $h)))
    (local.set $h4 (v128.load64_splat offset=32 (local.get $h)))
    (local.set $h5 (v128.load64_splat offset=40 (local.get $h)))
    (local.set $h6 (v128.load64_splat offset=48 (local.get $h)))
    (local.set $h7 (v128.load64_splat offset=56 (local.get $h)))
    (local.set $one (f64x2.splat (f64.const 1)))
    (local.set $t (f64x2.splat (local.get $thr)))
    (local.set $count (v128.const i64x2 0 0))
    (local.set $i (i32.const 0))
    (block $done
      (loop $pairs
        (br_if $done (i32.ge_u (local.get $i) (local.get $m)))
        (local.set $o (i32.shl (local.get $i) (i32.const 3)))
        (local.set $px (v128.load (i32.add (local.get $x) (local.get $o))))
        (local.set $py (v128.load (i32.add (local.get $y) (local.get $o))))
        (local.set $w (f64x2.div (local.get $one)
          (f64x2.add (f64x2.add (f64x2.mul (local.get $h6) (local.get $px)) (f64x2.mul (local.get $h7) (local.get $py))) (local.get $one))))
        (local.set $dx (f64x2.sub
          (f64x2.mul (f64x2.add (f64x2.add (f64x2.mul (local.get $h0) (local.get $px)) (f64x2.mul (local.get $h1) (local.get $py))) (local.get $h2)) (local.get $w))
          (v128.load (i32.add (local.get $u) (local.get $o)))))
        (local.set $dy (f64x2.sub
          (f64x2.mul (f64x2.add (f64x2.add (f64x2.mul (local.get $h3) (local.get $px)) (f64x2.mul (local.get $h4) (local.get $py))) (local.get $h5)) (local.get $w))
          (v128.load (i32.add (local.get $v) (local.get $o)))))
        (local.set $in (f64x2.le (f64x2.add (f64x2.mul (local.get $dx) (local.get $dx)) (f64x2.mul (local.get $dy) (local.get $dy))) (local.get $t)))
        ;; the second of the last pair past $m counts for nothing
        (if (i32.eq (i32.add (local.get $i) (i32.const 1)) (local.get $m))
          (then (local.set $in (v128.and (local.get $in) (v128.const i64x2 -1 0)))))
        ;; a lane that holds is all ones (-1): subtracted, it adds one
        (local.set $count (i64x2.sub (local.get $count) (local.get $in)))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $pairs)))
    (i32.wrap_i64 (i64.add (i64x2.extract_lane 0 (local.get $count)) (i64x2.extract_lane 1 (local.get $count)))))

  ;; The quick RANSAC count (`quickFit` in geometry.server.ts; the JavaScript it replaced is the
  ;; unit test's `plainCount`): the $m correspondences' coordinates as four f64 arrays at $x, $y, $u,
  ;; $v (16 bytes aligned, room for one more each), scratch at $work (16 + 576 + 72 bytes, then the best
  ;; homography's 72), at most $maxIters iterations, the inlier
  ;; distance's square $thr and log(1 - confidence) $logMiss. Returns the most inliers a sample's
  ;; homography gathered.
  (func (export "count") (param $x i32) (param $y i32) (param $u i32) (param $v i32) (param $m i32)
        (param $work i32) (param $maxIters i32) (param $thr f64) (param $logMiss f64) (result i32)
    (local $state i32) (local $it i32) (local $iters f64) (local $best i32) (local $count i32)
    (local $attempt i32) (local $ok i32) (local $k i32) (local $r i32) (local $negative i32)
    (local $i0 i32) (local $i1 i32) (local $i2 i32) (local $i3 i32) (local $mf f64)
    (local $idx i32) (local $a i32) (local $h i32) (local $p f64) (local $need f64)
    (local.set $idx (local.get $work))
    (local.set $a (i32.add (local.get $work) (i32.const 16)))
    (local.set $h (i32.add (local.get $work) (i32.const 592)))
    (local.set $state (i32.const 0x5eed))
    (local.set $mf (f64.convert_i32_s (local.get $m)))
    (local.set $iters (f64.convert_i32_s (local.get $maxIters)))
    (local.set $it (i32.const 0))
    (block $stop
      (loop $iterate
        (br_if $stop (i32.eqz (f64.lt (f64.convert_i32_s (local.get $it)) (local.get $iters))))
        (block $skip
          ;; a sample of 4 distinct correspondences whose 4 triangles all keep, or all flip, their orientation
          (local.set $ok (i32.const 0))
          (local.set $attempt (i32.const 0))
          (block $sampled
            (loop $attempts
              (br_if $sampled (i32.or (local.get $ok) (i32.ge_u (local.get $attempt) (i32.const 100))))
              (local.set $k (i32.const 0))
              (loop $draws
                (loop $draw
                  (local.set $state (i32.add (local.get $state) (i32.const 0x6d2b79f5)))
                  (local.set $r (i32.trunc_f64_s (f64.floor (f64.mul (call $value (local.get $state)) (local.get $mf)))))
                  (br_if $draw (i32.or (i32.or
                    (i32.and (i32.gt_u (local.get $k) (i32.const 0)) (i32.eq (local.get $r) (i32.load offset=0 (local.get $idx))))
                    (i32.and (i32.gt_u (local.get $k) (i32.const 1)) (i32.eq (local.get $r) (i32.load offset=4 (local.get $idx)))))
                    (i32.and (i32.gt_u (local.get $k) (i32.const 2)) (i32.eq (local.get $r) (i32.load offset=8 (local.get $idx)))))))
                (i32.store (i32.add (local.get $idx) (i32.shl (local.get $k) (i32.const 2))) (local.get $r))
                (local.set $k (i32.add (local.get $k) (i32.const 1)))
                (br_if $draws (i32.lt_u (local.get $k) (i32.const 4))))
              (local.set $i0 (i32.load offset=0 (local.get $idx)))
              (local.set $i1 (i32.load offset=4 (local.get $idx)))
              (local.set $i2 (i32.load offset=8 (local.get $idx)))
              (local.set $i3 (i32.load offset=12 (local.get $idx)))
              ;; the triangles (0, 1, 2), (1, 2, 3), (0, 2, 3), (0, 1, 3)
              (local.set $negative (i32.add
                (i32.add (call $flips (local.get $x) (local.get $y) (local.get $u) (local.get $v) (local.get $i0) (local.get $i1) (local.get $i2))
                         (call $flips (local.get $x) (local.get $y) (local.get $u) (local.get $v) (local.get $i1) (local.get $i2) (local.get $i3)))
                (i32.add (call $flips (local.get $x) (local.get $y) (local.get $u) (local.get $v) (local.get $i0) (local.get $i2) (local.get $i3))
                         (call $flips (local.get $x) (local.get $y) (local.get $u) (local.get $v) (local.get $i0) (local.get $i1) (local.get $i3)))))
              (local.set $ok (i32.or (i32.eqz (local.get $negative)) (i32.eq (local.get $negative) (i32.const 4))))
              (local.set $attempt (i32.add (local.get $attempt) (i32.const 1)))
              (br $attempts)))
          (br_if $skip (i32.eqz (local.get $ok)))
          (br_if $skip (i32.eqz (call $homography4 (local.get $x) (local.get $y) (local.get $u) (local.get $v) (local.get $idx) (local.get $a) (local.get $h))))
          (local.set $count (call $inliers (local.get $x) (local.get $y) (local.get $u) (local.get $v) (local.get $m) (local.get $h) (local.get $thr)))
          (br_if $skip (i32.le_s (local.get $count) (local.get $best)))
          (local.set $best (local.get $count))
          ;; the best sample's homography, kept at $work + 672 (`ransacFit`)
          (f64.store offset=672 (local.get $work) (f64.load offset=592 (local.get $work)))
          (f64.store offset=680 (local.get $work) (f64.load offset=600 (local.get $work)))
          (f64.store offset=688 (local.get $work) (f64.load offset=608 (local.get $work)))
          (f64.store offset=696 (local.get $work) (f64.load offset=616 (local.get $work)))
          (f64.store offset=704 (local.get $work) (f64.load offset=624 (local.get $work)))
          (f64.store offset=712 (local.get $work) (f64.load offset=632 (local.get $work)))
          (f64.store offset=720 (local.get $work) (f64.load offset=640 (local.get $work)))
          (f64.store offset=728 (local.get $work) (f64.load offset=648 (local.get $work)))
          (f64.store offset=736 (local.get $work) (f64.load offset=656 (local.get $work)))
          ;; iterations needed to draw one all-inlier sample with the given confidence
          (local.set $p (call $pow (f64.div (f64.convert_i32_s (local.get $count)) (local.get $mf)) (f64.const 4)))
          (br_if $stop (f64.ge (local.get $p) (f64.const 1)))
          (local.set $need (f64.div (local.get $logMiss) (call $log (f64.sub (f64.const 1) (local.get $p)))))
          ;; Number.isFinite: neither infinite nor NaN
          (if (f64.lt (f64.abs (local.get $need)) (f64.const inf))
            (then (local.set $iters (f64.min (local.get $iters) (f64.ceil (local.get $need)))))))
        (local.set $it (i32.add (local.get $it) (i32.const 1)))
        (br $iterate)))
    (local.get $best))
)
