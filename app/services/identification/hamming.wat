;; The descriptor kernels of vocab.server.ts in WebAssembly: a 256-bit ORB descriptor is four 64-bit
;; words, and WebAssembly's i64.popcnt counts the bits of one in a single instruction where JavaScript
;; looks a 16-bit table up twice per 32-bit word.
;; - `ratioMatches`: the exhaustive ratio-tested matching (the same comparisons in the same order as the
;;   JavaScript it replaced, so the same pairs; about 5x faster), in a memory of its own.
;; - `voteOne`: one photo descriptor's votes through the visual words (`vote`), over the posting lists'
;;   descriptors where they are stored: the memory is the store's (DescriptorChunks), given at
;;   instantiation, and `setup` says where its parts lie.
;; `npm run wasm` assembles it (wabt) into hamming-wasm.ts; a unit test checks the two agree.
(module
  ;; shared: growing it never detaches a buffer that JavaScript views (a detached buffer slows every
  ;; typed array of the thread from then on, see DescriptorChunks)
  (import "env" "memory" (memory 0 65536 shared))
  ;; where the posting lists lie in the store's memory (byte offsets), set by `setup`: descriptors
  ;; (32 bytes each, by posting index), owners' slots ($slotShift: 1 for u16, 2 for i32; the u16 are
  ;; read as an i32 and masked, so they are followed by 2 bytes of padding) and descriptor indices (u16)
  ;; by posting index; per slot, scratch (i32 each) for the nearest and second-nearest distance + 1, the nearest's
  ;; descriptor index, the slots touched, and whether the slot is alive (u8)
  (global $desc (mut i32) (i32.const 0))
  (global $slots (mut i32) (i32.const 0))
  (global $slotShift (mut i32) (i32.const 2))
  (global $slotMask (mut i32) (i32.const -1))
  (global $idx (mut i32) (i32.const 0))
  (global $best (mut i32) (i32.const 0))
  (global $sec (mut i32) (i32.const 0))
  (global $ref (mut i32) (i32.const 0))
  (global $touched (mut i32) (i32.const 0))
  (global $alive (mut i32) (i32.const 0))
  (func (export "setup") (param $desc i32) (param $slots i32) (param $idx i32) (param $best i32)
        (param $sec i32) (param $ref i32) (param $touched i32) (param $alive i32) (param $slotShift i32)
    (global.set $desc (local.get $desc))
    (global.set $slots (local.get $slots))
    (global.set $slotShift (local.get $slotShift))
    (global.set $slotMask (select (i32.const 0xffff) (i32.const -1) (i32.eq (local.get $slotShift) (i32.const 1))))
    (global.set $idx (local.get $idx))
    (global.set $best (local.get $best))
    (global.set $sec (local.get $sec))
    (global.set $ref (local.get $ref))
    (global.set $touched (local.get $touched))
    (global.set $alive (local.get $alive)))
  ;; Postings $k .. $to - 1 against the descriptor (a0..a3): per alive slot, the nearest and second-
  ;; nearest distance within $max (a distance is abandoned once its first 192 bits exceed $max: it
  ;; could not count); a slot seen for the first time is added to the touched list, which holds $nT
  ;; slots. Returns the new count.
  (func $scan (param $a0 i64) (param $a1 i64) (param $a2 i64) (param $a3 i64)
        (param $k i32) (param $to i32) (param $max i32) (param $nT i32) (result i32)
    (local $p i32) (local $d i32) (local $slot i32) (local $d1 i32) (local $b i32) (local $s4 i32)
    (block $done
      (loop $postings
        (br_if $done (i32.ge_u (local.get $k) (local.get $to)))
        (local.set $p (i32.add (global.get $desc) (i32.shl (local.get $k) (i32.const 5))))
        (local.set $d (i32.wrap_i64
          (i64.add
            (i64.add
              (i64.popcnt (i64.xor (local.get $a0) (i64.load (local.get $p))))
              (i64.popcnt (i64.xor (local.get $a1) (i64.load offset=8 (local.get $p)))))
            (i64.popcnt (i64.xor (local.get $a2) (i64.load offset=16 (local.get $p)))))))
        (if (i32.le_u (local.get $d) (local.get $max))
          (then
            (local.set $d (i32.add (local.get $d)
              (i32.wrap_i64 (i64.popcnt (i64.xor (local.get $a3) (i64.load offset=24 (local.get $p)))))))
            (if (i32.le_u (local.get $d) (local.get $max))
              (then
                (local.set $slot (i32.and (global.get $slotMask)
                  (i32.load (i32.add (global.get $slots) (i32.shl (local.get $k) (global.get $slotShift))))))
                (if (i32.load8_u (i32.add (global.get $alive) (local.get $slot)))
                  (then
                    (local.set $d1 (i32.add (local.get $d) (i32.const 1)))
                    (local.set $s4 (i32.shl (local.get $slot) (i32.const 2)))
                    (local.set $b (i32.load (i32.add (global.get $best) (local.get $s4))))
                    (if (i32.eqz (local.get $b))
                      (then
                        (i32.store (i32.add (global.get $touched) (i32.shl (local.get $nT) (i32.const 2))) (local.get $slot))
                        (local.set $nT (i32.add (local.get $nT) (i32.const 1)))
                        (i32.store (i32.add (global.get $best) (local.get $s4)) (local.get $d1))
                        (i32.store (i32.add (global.get $sec) (local.get $s4)) (i32.const 999))
                        (i32.store (i32.add (global.get $ref) (local.get $s4))
                          (i32.load16_u (i32.add (global.get $idx) (i32.shl (local.get $k) (i32.const 1))))))
                      (else
                        (if (i32.lt_s (local.get $d1) (local.get $b))
                          (then
                            (i32.store (i32.add (global.get $sec) (local.get $s4)) (local.get $b))
                            (i32.store (i32.add (global.get $best) (local.get $s4)) (local.get $d1))
                            (i32.store (i32.add (global.get $ref) (local.get $s4))
                              (i32.load16_u (i32.add (global.get $idx) (i32.shl (local.get $k) (i32.const 1))))))
                          (else
                            (if (i32.lt_s (local.get $d1) (i32.load (i32.add (global.get $sec) (local.get $s4))))
                              (then (i32.store (i32.add (global.get $sec) (local.get $s4)) (local.get $d1))))))))))))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $postings)))
    (local.get $nT))
  ;; The votes of the descriptor at $q (32 bytes) among postings $from0 .. $to0 - 1 (its word) and
  ;; $from1 .. $to1 - 1 (its second word, or an empty range): per slot touched, in the order first
  ;; touched, its nearest is a vote when within $accept and nearer than $ratio times the slot's second
  ;; nearest. Votes are written as (slot, descriptor index | distance << 16), two i32 each, from
  ;; byte $out (a descriptor index is below 2^16), and the scratch is cleared for the next descriptor;
  ;; returns how many.
  (func (export "voteOne") (param $q i32) (param $from0 i32) (param $to0 i32) (param $from1 i32) (param $to1 i32)
        (param $max i32) (param $accept i32) (param $ratio f64) (param $out i32) (result i32)
    (local $a0 i64) (local $a1 i64) (local $a2 i64) (local $a3 i64)
    (local $nT i32) (local $t i32) (local $slot i32) (local $s4 i32) (local $b i32) (local $n i32) (local $o i32)
    (local.set $a0 (i64.load (local.get $q)))
    (local.set $a1 (i64.load offset=8 (local.get $q)))
    (local.set $a2 (i64.load offset=16 (local.get $q)))
    (local.set $a3 (i64.load offset=24 (local.get $q)))
    (local.set $nT (call $scan (local.get $a0) (local.get $a1) (local.get $a2) (local.get $a3)
      (local.get $from0) (local.get $to0) (local.get $max) (i32.const 0)))
    (local.set $nT (call $scan (local.get $a0) (local.get $a1) (local.get $a2) (local.get $a3)
      (local.get $from1) (local.get $to1) (local.get $max) (local.get $nT)))
    (block $done
      (loop $slots
        (br_if $done (i32.ge_u (local.get $t) (local.get $nT)))
        (local.set $slot (i32.load (i32.add (global.get $touched) (i32.shl (local.get $t) (i32.const 2)))))
        (local.set $s4 (i32.shl (local.get $slot) (i32.const 2)))
        (local.set $b (i32.sub (i32.load (i32.add (global.get $best) (local.get $s4))) (i32.const 1)))
        (if (i32.le_s (local.get $b) (local.get $accept))
          (then
            (if (f64.lt (f64.convert_i32_s (i32.add (local.get $b) (i32.const 1)))
                        (f64.mul (local.get $ratio) (f64.convert_i32_s (i32.load (i32.add (global.get $sec) (local.get $s4))))))
              (then
                (local.set $o (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 3))))
                (i32.store (local.get $o) (local.get $slot))
                (i32.store offset=4 (local.get $o) (i32.or (i32.load (i32.add (global.get $ref) (local.get $s4)))
                  (i32.shl (local.get $b) (i32.const 16))))
                (local.set $n (i32.add (local.get $n) (i32.const 1)))))))
        (i32.store (i32.add (global.get $best) (local.get $s4)) (i32.const 0))
        (local.set $t (i32.add (local.get $t) (i32.const 1)))
        (br $slots)))
    (local.get $n))
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
