;; The decompressor of lz.ts's blocks in WebAssembly (lz-wasm.ts runs it; lz.ts has the format and
;; the JavaScript decompressor it must match byte for byte, tested in lz-wasm.test.ts). A history's
;; first broad query decompresses ~280 MB of search text in the lanes; in JavaScript that was a
;; third of each lane's time. Assembled by `npm run build:wasm` (scripts/build-wasm.ts) into
;; lz-decode.wasm.ts; a test checks that the two agree.
;;
;; decode(src, srcLen, dst, n) reads the block's sequences at [src + 4, src + srcLen) (the caller
;; read its length header: n) and writes the original at [dst, dst + n). The caller gives SLACK
;; writable bytes past dst + n: the common sequence is copied 8 or 16 bytes wide past its end
;; (the next sequence writes those bytes again), and the source is read up to 24 bytes ahead only
;; where it is that long. Returns n, or a negative number for a block that is not one compress()
;; wrote: -1 cut short, -2 corrupt. Every read and write stays inside the given ranges and slack.
(module
  (memory (export "memory") 1)
  (func (export "decode") (param $src i32) (param $srcLen i32) (param $dst i32) (param $n i32) (result i32)
    (local $ip i32) (local $end i32) (local $op i32) (local $oend i32)
    (local $token i32) (local $lit i32) (local $ml i32) (local $b i32)
    (local $dist i32) (local $ref i32) (local $stop i32)
    (local $srcFast i32) (local $outFast i32)
    (local.set $ip (i32.add (local.get $src) (i32.const 4)))
    (local.set $end (i32.add (local.get $src) (local.get $srcLen)))
    (local.set $op (local.get $dst))
    (local.set $oend (i32.add (local.get $dst) (local.get $n)))
    ;; The fast path's bounds: 16 literal bytes and a distance readable; its writes within the slack.
    (local.set $srcFast (i32.sub (local.get $end) (i32.const 24)))
    (local.set $outFast (i32.sub (local.get $oend) (i32.const 32)))
    (block $done
      (loop $seq
        (if (i32.ge_u (local.get $ip) (local.get $end)) (then (return (i32.const -1))))
        (local.set $token (i32.load8_u (local.get $ip)))
        (local.set $ip (i32.add (local.get $ip) (i32.const 1)))
        (local.set $lit (i32.shr_u (local.get $token) (i32.const 4)))
        (local.set $ml (i32.and (local.get $token) (i32.const 15)))
        ;; Most sequences: short literals and a short match, far from both ends.
        (if (i32.and
              (i32.and (i32.lt_u (local.get $lit) (i32.const 15)) (i32.lt_u (local.get $ml) (i32.const 15)))
              (i32.and (i32.lt_s (local.get $ip) (local.get $srcFast)) (i32.lt_s (local.get $op) (local.get $outFast))))
          (then
            (i64.store (local.get $op) (i64.load (local.get $ip)))
            (i64.store offset=8 (local.get $op) (i64.load offset=8 (local.get $ip)))
            (local.set $ip (i32.add (local.get $ip) (local.get $lit)))
            (local.set $op (i32.add (local.get $op) (local.get $lit)))
            (local.set $dist (i32.load16_u (local.get $ip)))
            (local.set $ip (i32.add (local.get $ip) (i32.const 2)))
            (local.set $ref (i32.sub (local.get $op) (local.get $dist)))
            (if (i32.or (i32.eqz (local.get $dist)) (i32.lt_s (local.get $ref) (local.get $dst))) (then (return (i32.const -2))))
            (local.set $stop (i32.add (local.get $op) (i32.add (local.get $ml) (i32.const 4))))
            (if (i32.ge_u (local.get $dist) (i32.const 8))
              (then
                ;; Eight bytes at a time read only bytes already final when the match is 8 or more back.
                (loop $wide
                  (i64.store (local.get $op) (i64.load (local.get $ref)))
                  (local.set $op (i32.add (local.get $op) (i32.const 8)))
                  (local.set $ref (i32.add (local.get $ref) (i32.const 8)))
                  (br_if $wide (i32.lt_s (local.get $op) (local.get $stop)))))
              (else
                (loop $narrow
                  (i32.store8 (local.get $op) (i32.load8_u (local.get $ref)))
                  (local.set $op (i32.add (local.get $op) (i32.const 1)))
                  (local.set $ref (i32.add (local.get $ref) (i32.const 1)))
                  (br_if $narrow (i32.lt_s (local.get $op) (local.get $stop))))))
            (local.set $op (local.get $stop))
            (br $seq)))
        ;; The general case, every length and bound checked.
        (if (i32.eq (local.get $lit) (i32.const 15))
          (then
            (loop $more
              (if (i32.ge_u (local.get $ip) (local.get $end)) (then (return (i32.const -1))))
              (local.set $b (i32.load8_u (local.get $ip)))
              (local.set $ip (i32.add (local.get $ip) (i32.const 1)))
              (local.set $lit (i32.add (local.get $lit) (local.get $b)))
              (br_if $more (i32.eq (local.get $b) (i32.const 255))))))
        (if (i32.or (i32.gt_u (local.get $lit) (i32.sub (local.get $end) (local.get $ip)))
                    (i32.gt_u (local.get $lit) (i32.sub (local.get $oend) (local.get $op))))
          (then (return (i32.const -2))))
        (memory.copy (local.get $op) (local.get $ip) (local.get $lit))
        (local.set $ip (i32.add (local.get $ip) (local.get $lit)))
        (local.set $op (i32.add (local.get $op) (local.get $lit)))
        (br_if $done (i32.eq (local.get $ip) (local.get $end)))
        (if (i32.gt_u (i32.add (local.get $ip) (i32.const 2)) (local.get $end)) (then (return (i32.const -1))))
        (local.set $dist (i32.load16_u (local.get $ip)))
        (local.set $ip (i32.add (local.get $ip) (i32.const 2)))
        (if (i32.eq (local.get $ml) (i32.const 15))
          (then
            (loop $more
              (if (i32.ge_u (local.get $ip) (local.get $end)) (then (return (i32.const -1))))
              (local.set $b (i32.load8_u (local.get $ip)))
              (local.set $ip (i32.add (local.get $ip) (i32.const 1)))
              (local.set $ml (i32.add (local.get $ml) (local.get $b)))
              (br_if $more (i32.eq (local.get $b) (i32.const 255))))))
        (local.set $ml (i32.add (local.get $ml) (i32.const 4)))
        (local.set $ref (i32.sub (local.get $op) (local.get $dist)))
        (if (i32.or
              (i32.or (i32.eqz (local.get $dist)) (i32.lt_s (local.get $ref) (local.get $dst)))
              (i32.gt_u (local.get $ml) (i32.sub (local.get $oend) (local.get $op))))
          (then (return (i32.const -2))))
        (local.set $stop (i32.add (local.get $op) (local.get $ml)))
        (if (i32.ge_u (local.get $dist) (local.get $ml))
          (then (memory.copy (local.get $op) (local.get $ref) (local.get $ml)))
          (else
            (loop $overlap
              (i32.store8 (local.get $op) (i32.load8_u (local.get $ref)))
              (local.set $op (i32.add (local.get $op) (i32.const 1)))
              (local.set $ref (i32.add (local.get $ref) (i32.const 1)))
              (br_if $overlap (i32.lt_u (local.get $op) (local.get $stop))))))
        (local.set $op (local.get $stop))
        (br $seq)))
    (if (i32.ne (local.get $op) (local.get $oend)) (then (return (i32.const -2))))
    (local.get $n)))
