#!/usr/bin/env python3
"""Trains the network that compares pins by appearance (app/services/identification/appearance.server.ts).

It learns from the public benchmark set only: each reference is pasted, turned, tilted, lit, blurred
and compressed onto patches of the set's own photo backgrounds many times over, and the set's known
photos are cut around their pin (from the generator's parameters) with the box moved and resized as
the engine's windows will be. A small residual network is fitted to tell the 300 pins apart (a cosine
classifier with a margin), and its 128-number output is what the engine compares. The validation set
is only measured on: every photo looked at in the engine's windows, its pins ranked.

Needs Debian's python3-torch, python3-opencv, python3-numpy and python3-onnx (no download). About 25
minutes on one core; with the same seeds and threads it writes the same network.

    python3 tests/bench/train-appearance.py      # trains, writes the model, measures it on both sets
"""
import argparse, csv, json, os, sys, time, math
import numpy as np, cv2, torch, torch.nn as nn, torch.nn.functional as F

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
S = 64                       # the network's input side (APPEARANCE_SIDE)
REF_MARGIN = 1.3             # a reference's square: its pin's box, this many times its longer side
SCALES = [0.3, 0.4, 0.53, 0.7, 0.93]   # WINDOW_SCALES
STEP = 0.4                   # WINDOW_STEP
WIDTHS = [16, 32, 48, 96, 160]


def catalogue(base):
    rows = list(csv.DictReader(open(os.path.join(base, 'catalogue.csv'))))
    names = [r['name'] for r in rows]
    images = [(i, os.path.join(base, p)) for i, r in enumerate(rows) for p in r['images'].split('|')]
    return names, images


def photo_params(base):
    return {p['query']: p for p in (json.loads(line) for line in open(os.path.join(base, 'query_params.jsonl')))}


def truth(base):
    return list(csv.DictReader(open(os.path.join(base, 'truth.csv'))))


def hull_box(im):
    """The box of the engine's pin outline (pinHull): every 2nd row, pixels with min < 170 or max - min > 40."""
    a = im[::2].astype(np.int16)
    m = (a.min(2) < 170) | (a.max(2) - a.min(2) > 40)
    rows = np.where(m.any(1))[0]
    if len(rows) == 0:
        return 0, 0, im.shape[1], im.shape[0]
    cols = np.where(m.any(0))[0]
    return cols[0], rows[0] * 2, cols[-1] - cols[0], (rows[-1] - rows[0]) * 2


def square(im, cx, cy, side, fill=None):
    """The square of `side` about (cx, cy), resized to S by INTER_AREA; outside the image, `fill` or the edge's pixels."""
    H, W = im.shape[:2]
    x0, y0, n = int(round(cx - side / 2)), int(round(cy - side / 2)), max(2, int(round(side)))
    pad = max(0, -x0, -y0, x0 + n - W, y0 + n - H)
    if pad:
        im = cv2.copyMakeBorder(im, pad, pad, pad, pad, cv2.BORDER_REPLICATE if fill is None else cv2.BORDER_CONSTANT, value=fill)
        x0 += pad
        y0 += pad
    c = im[y0:y0 + n, x0:x0 + n]
    return cv2.resize(c, (S, S), interpolation=cv2.INTER_AREA if n > S else cv2.INTER_LINEAR)


def reference_square(im):
    x, y, w, h = hull_box(im)
    return square(im, x + w / 2, y + h / 2, max(w, h) * REF_MARGIN, fill=(255, 255, 255))


def windows(im):
    """The photo's windows as the engine cuts them (photoWindows)."""
    H, W = im.shape[:2]
    short = min(W, H)
    out = []
    for sc in SCALES:
        f = S / (sc * short)
        r = cv2.resize(im, (max(1, round(W * f)), max(1, round(H * f))), interpolation=cv2.INTER_AREA)
        px, py = max(0, S - r.shape[1]), max(0, S - r.shape[0])
        if px or py:
            r = cv2.copyMakeBorder(r, py // 2, py - py // 2, px // 2, px - px // 2, cv2.BORDER_REPLICATE)
        st = S * STEP

        def grid(L):
            n = int(math.floor((L - S) / st + 1e-9)) + 1
            a = ((L - S) - (n - 1) * st) / 2
            return [int(round(a + k * st)) for k in range(n)]
        out += [r[y:y + S, x:x + S] for y in grid(r.shape[0]) for x in grid(r.shape[1])]
    return np.stack(out)


def pin_mask(im):
    """The reference's pin: its clearly non-white pixels, closed, the largest part, holes filled."""
    m = ((255 - im.min(axis=2).astype(np.int32)) > 28).astype(np.uint8)
    m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    n, lab, st, _ = cv2.connectedComponentsWithStats(m)
    if n < 2:
        return np.ones_like(m)
    m = (lab == 1 + int(np.argmax(st[1:, cv2.CC_STAT_AREA]))).astype(np.uint8)
    cnts, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    m = np.zeros_like(m)
    cv2.drawContours(m, cnts, -1, 1, -1)
    return m


def background_patches(base, params, rng, n=250):
    out = []
    for p in list(params.values())[:n]:
        im = cv2.imread(os.path.join(base, p['query']))
        H, W = im.shape[:2]
        s = min(W, H)
        for _ in range(4):
            side = rng.uniform(0.25, 0.6) * s
            x, y = rng.uniform(0, W - side), rng.uniform(0, H - side)
            out.append(cv2.resize(im[int(y):int(y + side), int(x):int(x + side)], (256, 256), interpolation=cv2.INTER_AREA))
    return out


def photographed(im, mask, backgrounds, rng):
    """A reference as a phone might show it: turned, tilted, on a background, lit, blurred, noisy, compressed."""
    x, y, w, h = hull_box(im)
    C = int(np.exp(rng.uniform(np.log(110), np.log(520))))
    side = max(w, h) * REF_MARGIN * np.exp(rng.uniform(np.log(0.8), np.log(1.3)))
    cx, cy = x + w / 2 + rng.uniform(-0.17, 0.17) * side, y + h / 2 + rng.uniform(-0.17, 0.17) * side
    src = np.float32([[cx - side / 2, cy - side / 2], [cx + side / 2, cy - side / 2], [cx + side / 2, cy + side / 2], [cx - side / 2, cy + side / 2]])
    th, t, ax = np.radians(rng.uniform(-70, 70)), np.radians(min(38, abs(rng.normal(0, 18)))), rng.uniform(0, 2 * np.pi)
    u = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * 0.5
    u = u @ np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]]).T
    a = np.array([np.cos(ax), np.sin(ax)])
    along = u @ a
    perp = u - np.outer(along, a)
    z = along * np.sin(t)
    f = 2.5
    p2 = (np.outer(along * np.cos(t), a) + perp) * (f / (f + z))[:, None]
    M = cv2.getPerspectiveTransform(src, np.float32((p2 + 0.5) * C))
    warped = cv2.warpPerspective(im, M, (C, C), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT, borderValue=(255, 255, 255))
    mask = cv2.warpPerspective(mask.astype(np.float32), M, (C, C), flags=cv2.INTER_LINEAR)
    bg = cv2.resize(backgrounds[rng.integers(len(backgrounds))], (C, C)).astype(np.float32)
    if rng.random() < 0.3:
        bg = bg * 0.5 + rng.uniform(40, 200, 3)[None, None, :] * 0.5
    mk = cv2.GaussianBlur(mask, (0, 0), 0.8)[..., None]
    if rng.random() < 0.6:
        sh = cv2.GaussianBlur(mask, (0, 0), C * 0.03)
        sh = np.roll(np.roll(sh, int(C * rng.uniform(-0.04, 0.04)), 0), int(C * rng.uniform(-0.04, 0.04)), 1)
        bg = bg * (1 - rng.uniform(0.2, 0.5) * sh[..., None])
    img = warped.astype(np.float32) * mk + bg * (1 - mk)
    g = rng.uniform(0.55, 1.3) * rng.uniform(0.88, 1.12, 3)
    yy, xx = np.mgrid[0:C, 0:C] / C - 0.5
    ga, gs = rng.uniform(0, 2 * np.pi), rng.uniform(0, 0.5)
    img = img * g[None, None, :] * (1 + gs * (np.cos(ga) * xx + np.sin(ga) * yy))[..., None]
    if rng.random() < 0.55:
        gx, gy = rng.uniform(0.25, 0.75, 2) * C
        r = rng.uniform(0.05, 0.3) * C
        blob = np.exp(-(((xx + 0.5) * C - gx) ** 2 + ((yy + 0.5) * C - gy) ** 2 * rng.uniform(0.3, 3)) / (2 * r * r))
        img = img + rng.uniform(60, 220) * blob[..., None] * mk
    img = np.clip(img, 0, 255)
    d = rng.uniform(0, 2.4)
    if d > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), d)
    if rng.random() < 0.45:
        L = int(rng.uniform(3, 12))
        k = np.zeros((L, L), np.float32)
        k[L // 2, :] = 1
        k = cv2.warpAffine(k, cv2.getRotationMatrix2D((L / 2 - 0.5, L / 2 - 0.5), rng.uniform(0, 180), 1), (L, L))
        img = cv2.filter2D(img, -1, k / k.sum())
    img = np.clip(img + rng.normal(0, rng.uniform(0, 9), img.shape), 0, 255).astype(np.uint8)
    img = cv2.imdecode(cv2.imencode('.jpg', img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.uniform(50, 92))])[1], 1)
    return cv2.resize(img, (S, S), interpolation=cv2.INTER_AREA)


def photo_square(base, p, im, rng=None):
    """A photo cut around its pin where the generator put it; with rng, moved and resized as a window may be."""
    H, W = im.shape[:2]
    s = min(W, H)
    cx, cy, side = W / 2 + p['off'][0] * s, H / 2 + p['off'][1] * s, p['cover'] * s * REF_MARGIN
    if rng is not None:
        cx += rng.uniform(-0.17, 0.17) * side
        cy += rng.uniform(-0.17, 0.17) * side
        side *= np.exp(rng.uniform(np.log(0.8), np.log(1.3)))
    return square(im, cx, cy, side)


def training_set(base, per_reference=50):
    """Two halves (every other reference and photo), each with its own seed and background patches."""
    params = photo_params(base)
    names, images = catalogue(base)
    index = {n: i for i, n in enumerate(names)}
    X, Y = [], []
    for half in (0, 1):
        rng = np.random.default_rng(7 + half)
        backgrounds = background_patches(base, params, rng)
        for k, (pin, path) in enumerate(images):
            if k % 2 != half:
                continue
            im = cv2.imread(path)
            mask = pin_mask(im)
            X.append(reference_square(im))
            Y.append(pin)
            for _ in range(per_reference):
                X.append(photographed(im, mask, backgrounds, rng))
                Y.append(pin)
        for k, t in enumerate(truth(base)):
            if t['kind'] != 'known' or k % 2 != half:
                continue
            p = params[t['query']]
            im = cv2.imread(os.path.join(base, p['query']))
            for j in range(8):
                X.append(photo_square(base, p, im, rng if j else None))
                Y.append(index[t['expected']])
    return np.stack(X), np.array(Y), len(names)


def block(i, o, s):
    return nn.Sequential(nn.Conv2d(i, o, 3, s, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True),
                         nn.Conv2d(o, o, 3, 1, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))


class Net(nn.Module):
    """64 x 64 B, G, R (0-255) -> 128 numbers of length 1."""

    def __init__(self):
        super().__init__()
        w = WIDTHS
        self.f = nn.Sequential(nn.Conv2d(3, w[0], 3, 2, 1, bias=False), nn.BatchNorm2d(w[0]), nn.ReLU(inplace=True),
                               block(w[0], w[1], 2), block(w[1], w[2], 2), block(w[2], w[3], 2), block(w[3], w[4], 2))
        self.fc = nn.Linear(w[4] * 2, 128)

    def forward(self, x):
        h = self.f(x.float() / 127.5 - 1)
        return F.normalize(self.fc(torch.cat([h.mean((2, 3)), h.amax((2, 3))], 1)), dim=1)


def train(X, Y, classes, steps, seed=0):
    torch.manual_seed(seed)
    X = torch.from_numpy(X).permute(0, 3, 1, 2).contiguous()
    Y = torch.from_numpy(Y).long()
    net = Net()
    proxy = nn.Parameter(torch.randn(classes, 128) * 0.1)
    opt = torch.optim.AdamW(list(net.parameters()) + [proxy], lr=3e-3, weight_decay=5e-4)
    t0 = time.time()
    for step in range(steps):
        for g in opt.param_groups:
            g['lr'] = 3e-3 * 0.5 * (1 + math.cos(math.pi * step / steps))
        idx = torch.randint(len(X), (128,))
        y = Y[idx]
        logits = net(X[idx]) @ F.normalize(proxy, dim=1).T
        loss = F.cross_entropy(24 * (logits - 0.2 * F.one_hot(y, classes)), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if (step + 1) % 200 == 0:
            print(f'step {step + 1}/{steps}  loss {loss.item():.3f}  {time.time() - t0:.0f} s', flush=True)
    return net.eval()


def embed(net, squares):
    with torch.no_grad():
        return torch.cat([net(torch.from_numpy(squares[i:i + 256]).permute(0, 3, 1, 2)) for i in range(0, len(squares), 256)])


def measure(net, base):
    """Each known photo's pin ranked among the catalogue's by its closest window, as the engine ranks them."""
    names, images = catalogue(base)
    G = embed(net, np.stack([reference_square(cv2.imread(p)) for _, p in images]))
    owner = np.array([i for i, _ in images])
    index = {n: i for i, n in enumerate(names)}
    ranks = []
    for t in truth(base):
        if t['kind'] != 'known':
            continue
        best = (embed(net, windows(cv2.imread(os.path.join(base, t['query'])))) @ G.T).max(0).values.numpy()
        per_pin = np.full(len(names), -2.0)
        np.maximum.at(per_pin, owner, best)
        ranks.append(int((per_pin > per_pin[index[t['expected']]]).sum()))
    r = np.array(ranks)
    return {'photos': len(r), 'first': round(100 * float((r == 0).mean()), 1), 'first4': round(100 * float((r < 4).mean()), 1)}


def closest_graph():
    """The graph appearance.server.ts runs as CLOSEST_GRAPH (base64): for each reference, the closest window."""
    import base64
    import onnx
    from onnx import helper, TensorProto
    nodes = [helper.make_node('Transpose', ['references'], ['rt'], perm=[1, 0]),
             helper.make_node('MatMul', ['windows', 'rt'], ['sims']),
             helper.make_node('ReduceMax', ['sims'], ['closest'], axes=[0], keepdims=0)]
    g = helper.make_graph(nodes, 'closest', [helper.make_tensor_value_info('windows', TensorProto.FLOAT, ['n', 128]),
                                             helper.make_tensor_value_info('references', TensorProto.FLOAT, ['m', 128])],
                          [helper.make_tensor_value_info('closest', TensorProto.FLOAT, ['m'])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid('', 13)], producer_name='pindex')
    onnx.checker.check_model(m)
    return base64.b64encode(m.SerializeToString()).decode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--public', default=os.environ.get('BENCH_DIR', os.path.join(ROOT, '..', 'shared', 'bench', 'identify')))
    ap.add_argument('--validation', default=os.environ.get('VALIDATION_DIR', os.path.join(ROOT, '..', 'shared', 'bench', 'identify-validation')))
    ap.add_argument('--out', default=os.path.join(ROOT, 'app', 'services', 'identification', 'pin-appearance.onnx'))
    ap.add_argument('--steps', type=int, default=2400)
    a = ap.parse_args()
    torch.set_num_threads(1)  # as trained: more threads sum in another order
    X, Y, classes = training_set(a.public)
    print(f'training set: {len(X)} squares of {classes} pins', flush=True)
    net = train(X, Y, classes, a.steps)
    torch.save(net.state_dict(), a.out.replace('.onnx', '.pt') if os.environ.get('KEEP_PT') else os.devnull)
    torch.onnx.export(net, (torch.zeros(1, 3, S, S),), a.out, input_names=['squares'], output_names=['vectors'],
                      dynamic_axes={'squares': {0: 'n'}, 'vectors': {0: 'n'}}, opset_version=13)
    print(f'wrote {os.path.relpath(a.out, ROOT)} ({os.path.getsize(a.out)} bytes)')
    print('CLOSEST_GRAPH', closest_graph())
    for name, base in (('public', a.public), ('validation', a.validation)):
        print(name, 'pin ranked by its closest window:', json.dumps(measure(net, base)), flush=True)


if __name__ == '__main__':
    main()
