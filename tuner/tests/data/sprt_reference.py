#!/usr/bin/env python3
"""Reference LLRs for tuner/src/stats/sprt.rs, computed independently of the Rust code.

Models as in fastchess app/src/matchmaking/sprt/sprt.cpp, after M. Van den Bergh,
"Comments on Normalized Elo", https://www.cantate.be/Fishtest/normalized_elo_practical.pdf:
  logistic   : MLE with mean s_j = 1/(1+10^(-elo_j/400))                 (prop. 1.1)
  normalized : MLE with (mu - 1/2)/sigma = t_j, t_j = elo_j/(800/ln 10)     (section 4.1)
               (pentanomial: t_j = sqrt(2) elo_j/(800/ln 10))
  bayesian   : logistic MLE with s_j = BayesElo score for elo_j and the drawelo of the sample
Empty classes count 1e-3. Roots are found by bisection to the last bit of a double, and the
normalized fixed point is iterated to convergence (1e-13), not cut at 10 steps, along t walked
up from 0 in 64 steps.
Run `python3 sprt_reference.py`; the tests in sprt.rs quote its output.
"""
import math

def regularize(counts):
    return [c if c > 0 else 1e-3 for c in counts]

def secular_root(p, phi):
    # Solves sum p_i phi_i / (1 + x phi_i) = 0 on (-1/max phi, -1/min phi); f decreases there.
    lo, hi = -1.0 / max(phi), -1.0 / min(phi)
    for _ in range(400):
        mid = (lo + hi) / 2
        if mid == lo or mid == hi:
            break
        f = math.fsum(pi * fi / (1 + mid * fi) for pi, fi in zip(p, phi))
        if f > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2

def mle_mean(p, a, s):
    x = secular_root(p, [ai - s for ai in a])
    return [pi / (1 + x * (ai - s)) for pi, ai in zip(p, a)]

def fixed_point(p, a, ref, t, q):
    for _ in range(10000):
        mu = math.fsum(qi * ai for qi, ai in zip(q, a))
        var = math.fsum(qi * (ai - mu) ** 2 for qi, ai in zip(q, a))
        sigma = math.sqrt(var)
        phi = [ai - ref - 0.5 * t * sigma * (1 + ((ai - mu) / sigma) ** 2) for ai in a]
        x = secular_root(p, phi)
        new = [pi / (1 + x * fi) for pi, fi in zip(p, phi)]
        diff = max(abs(u - v) for u, v in zip(new, q))
        q = new
        if diff < 1e-13:
            break
    return q

def mle_t(p, a, ref, t, steps=64):
    # t is walked up from 0, each fixed point started from the last: one jump from the uniform
    # distribution (fishtest, fastchess) has no solution for t far from the sample.
    q = [1 / len(a)] * len(a)
    for k in range(1, steps + 1):
        q = fixed_point(p, a, ref, t * k / steps, q)
    return q

def llr(counts, a, p0, p1):
    reg = regularize(counts)
    n = math.fsum(reg)
    p = [c / n for c in reg]
    return n * math.fsum(pi * (math.log(x1) - math.log(x0)) for pi, x0, x1 in zip(p, p0, p1))

def probs(counts):
    reg = regularize(counts)
    n = sum(reg)
    return [c / n for c in reg]

TRI = [0.0, 0.5, 1.0]
PENTA = [0.0, 0.25, 0.5, 0.75, 1.0]
K = 800 / math.log(10)

def logistic(counts, a, e0, e1):
    p = probs(counts)
    s = lambda e: 1 / (1 + 10 ** (-e / 400))
    return llr(counts, a, mle_mean(p, a, s(e0)), mle_mean(p, a, s(e1)))

def normalized(counts, a, e0, e1):
    p = probs(counts)
    f = math.sqrt(2) if len(a) == 5 else 1.0
    return llr(counts, a, mle_t(p, a, 0.5, f * e0 / K), mle_t(p, a, 0.5, f * e1 / K))

def bayesian(wdl, e0, e1):
    w, d, l = wdl
    if w == 0 or l == 0:
        return 0.0
    counts = [l, d, w]
    p = probs(counts)
    L, W = p[0], p[2]
    drawelo = 200 * math.log10((1 - L) / L * (1 - W) / W)
    def score(e):
        pw = 1 / (1 + 10 ** ((-e + drawelo) / 400))
        pl = 1 / (1 + 10 ** ((e + drawelo) / 400))
        return pw + 0.5 * (1 - pw - pl)
    return llr(counts, TRI, mle_mean(p, TRI, score(e0)), mle_mean(p, TRI, score(e1)))

def alt_normalized(counts, a, e0, e1):
    # Van den Bergh's GSPRT approximation: N/2 ln((1+(t-t0)^2)/(1+(t-t1)^2)).
    p = probs(counts)
    n = sum(regularize(counts))
    mu = sum(pi * ai for pi, ai in zip(p, a))
    var = sum(pi * (ai - mu) ** 2 for pi, ai in zip(p, a))
    f = math.sqrt(2) if len(a) == 5 else 1.0
    t = (mu - 0.5) / math.sqrt(var)
    t0, t1 = f * e0 / K, f * e1 / K
    return n / 2 * math.log((1 + (t - t0) ** 2) / (1 + (t - t1) ** 2))

if __name__ == "__main__":
    # W, D, L = 120, 200, 80 as the existing trinomial test; LL..WW as the pentanomial test.
    tri = [80, 200, 120]
    pen = [5, 40, 90 + 20, 60, 15]
    print("logistic tri [0,10]   %.6f" % logistic(tri, TRI, 0, 10))
    print("logistic pen [0,5]    %.6f" % logistic(pen, PENTA, 0, 5))
    print("normalized tri [0,10] %.6f  alt %.6f" % (normalized(tri, TRI, 0, 10), alt_normalized(tri, TRI, 0, 10)))
    print("normalized pen [0,5]  %.6f  alt %.6f" % (normalized(pen, PENTA, 0, 5), alt_normalized(pen, PENTA, 0, 5)))
    print("normalized pen [-3,1] %.6f" % normalized(pen, PENTA, -3, 1))
    print("normalized pen zeros [0,0,7,3,1] [0,5] %.6f" % normalized([0, 0, 7, 3, 1], PENTA, 0, 5))
    print("normalized pen all WW [0,400] %.6f" % normalized([0, 0, 0, 0, 4090], PENTA, 0, 400))
    print("normalized tri [-300,0] %.6f" % normalized([400, 30, 2], TRI, -300, 0))
    print("bayesian tri [0,10]   %.6f" % bayesian((120, 200, 80), 0, 10))
    print("bayesian tri [-5,5] %.6f" % bayesian((300, 1000, 310), -5, 5))
    print("bayesian no losses    %.6f" % bayesian((10, 5, 0), 0, 10))
