;; The visual words of a photo's descriptors (`quantizeSoft` in vocab.server.ts), in WebAssembly: the
;; same nearest and second-nearest centroids, ties to the first, and the same second word. A descriptor's
;; distance to a centroid is the popcount of their XOR, 64 bits at a time; JavaScript counted it 16 bits
;; at a time through a table, and the search took about 6 ms of every photo's match on the main thread.
;; `npm run wasm` assembles it (wabt) into words-wasm.ts; a unit test checks it against the JavaScript.
(module
  ;; shared: growing it never detaches a buffer that JavaScript views
  (import "env" "memory" (memory 0 65536 shared))
  (global $best (mut i32) (i32.const 0))
  (global $bd (mut i32) (i32.const 0))
  (global $second (mut i32) (i32.const 0))
  (global $sd (mut i32) (i32.const 0))

  ;; Hamming distance of the 32-byte descriptors at $a and $b.
  (func $dist (param $a i32) (param $b i32) (result i32)
    (i32.wrap_i64 (i64.add
      (i64.add (i64.popcnt (i64.xor (i64.load offset=0 (local.get $a)) (i64.load offset=0 (local.get $b))))
               (i64.popcnt (i64.xor (i64.load offset=8 (local.get $a)) (i64.load offset=8 (local.get $b)))))
      (i64.add (i64.popcnt (i64.xor (i64.load offset=16 (local.get $a)) (i64.load offset=16 (local.get $b))))
               (i64.popcnt (i64.xor (i64.load offset=24 (local.get $a)) (i64.load offset=24 (local.get $b))))))))

  ;; The nearest and second-nearest of the $k centroids at $cent to the descriptor at $q, into the
  ;; globals (no second: the nearest again, at distance 1e9).
  (func $near2 (param $cent i32) (param $k i32) (param $q i32)
    (local $c i32) (local $d i32) (local $best i32) (local $bd i32) (local $sec i32) (local $sd i32)
    (local.set $bd (i32.const 1000000000))
    (local.set $sec (i32.const -1))
    (local.set $sd (i32.const 1000000000))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $c) (local.get $k)))
        (local.set $d (call $dist (local.get $q) (i32.add (local.get $cent) (i32.shl (local.get $c) (i32.const 5)))))
        (if (i32.lt_s (local.get $d) (local.get $bd))
          (then
            (local.set $sec (local.get $best))
            (local.set $sd (local.get $bd))
            (local.set $bd (local.get $d))
            (local.set $best (local.get $c)))
          (else
            (if (i32.lt_s (local.get $d) (local.get $sd))
              (then
                (local.set $sec (local.get $c))
                (local.set $sd (local.get $d))))))
        (local.set $c (i32.add (local.get $c) (i32.const 1)))
        (br $each)))
    (global.set $best (local.get $best))
    (global.set $bd (local.get $bd))
    (global.set $second (select (local.get $best) (local.get $sec) (i32.lt_s (local.get $sec) (i32.const 0))))
    (global.set $sd (select (i32.const 1000000000) (local.get $sd) (i32.lt_s (local.get $sec) (i32.const 0)))))

  ;; Words and second words (0xffff: none) of the $n descriptors at $desc into $words and $second (u16
  ;; each). $top holds $topK centroids; leaf node t's centroids start at the i32 $leafAt[t] and number
  ;; $leafK[t]; a word is t * $branch + its leaf.
  (func (export "soft") (param $desc i32) (param $n i32) (param $top i32) (param $topK i32) (param $leafAt i32) (param $leafK i32)
        (param $branch i32) (param $slack i32) (param $words i32) (param $second i32)
    (local $i i32) (local $q i32) (local $t i32) (local $t2 i32) (local $td i32) (local $td2 i32)
    (local $alt i32) (local $altD i32) (local $leafBest i32)
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $q (i32.add (local.get $desc) (i32.shl (local.get $i) (i32.const 5))))
        (call $near2 (local.get $top) (local.get $topK) (local.get $q))
        (local.set $t (global.get $best))
        (local.set $t2 (global.get $second))
        (local.set $td (global.get $bd))
        (local.set $td2 (global.get $sd))
        (call $near2 (i32.load (i32.add (local.get $leafAt) (i32.shl (local.get $t) (i32.const 2))))
                     (i32.load (i32.add (local.get $leafK) (i32.shl (local.get $t) (i32.const 2)))) (local.get $q))
        (i32.store16 (i32.add (local.get $words) (i32.shl (local.get $i) (i32.const 1)))
          (i32.add (i32.mul (local.get $t) (local.get $branch)) (global.get $best)))
        (local.set $alt (select
          (i32.add (i32.mul (local.get $t) (local.get $branch)) (global.get $second))
          (i32.const 0xffff)
          (i32.le_s (global.get $sd) (i32.add (global.get $bd) (local.get $slack)))))
        (local.set $altD (global.get $sd))
        (local.set $leafBest (global.get $bd))
        (if (i32.and (i32.gt_s (local.get $topK) (i32.const 1)) (i32.le_s (local.get $td2) (i32.add (local.get $td) (local.get $slack))))
          (then
            (call $near2 (i32.load (i32.add (local.get $leafAt) (i32.shl (local.get $t2) (i32.const 2))))
                         (i32.load (i32.add (local.get $leafK) (i32.shl (local.get $t2) (i32.const 2)))) (local.get $q))
            (if (i32.and (i32.le_s (global.get $bd) (i32.add (local.get $leafBest) (local.get $slack)))
                         (i32.or (i32.eq (local.get $alt) (i32.const 0xffff)) (i32.lt_s (global.get $bd) (local.get $altD))))
              (then (local.set $alt (i32.add (i32.mul (local.get $t2) (local.get $branch)) (global.get $best)))))))
        (i32.store16 (i32.add (local.get $second) (i32.shl (local.get $i) (i32.const 1))) (local.get $alt))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each))))
)
