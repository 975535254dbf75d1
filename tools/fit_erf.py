#!/usr/bin/env python3
"""tools/fit_erf.py: the coefficients of erf_of (kernels/cpu/isa/f32_kernels.ipp).

Fits erf(x) ~ x P(x^2) / Q(x^2) on [0, 4], P and Q of degree 5 with Q(0) = 1,
in absolute error: linearized least squares (x P - erf Q = 0 at the nodes,
each row divided by the previous iterate's Q), the nodes reweighted by Lawson's
rule toward the minimax error. Prints the coefficients (constant term first)
and the error in double; the kernel rounds them to float. Needs numpy
(Debian python3-numpy):

    /usr/bin/python3 tools/fit_erf.py
"""
import math

import numpy as np


def fit(p_degree=5, q_degree=5, iterations=40):
    x = np.sort(np.concatenate([np.cos(np.linspace(0, np.pi, 4000)) * 2 + 2, np.linspace(0, 4, 4000)]))
    f = np.array([math.erf(v) for v in x])
    t = x * x
    weight = np.ones_like(x)
    q_prev = np.ones_like(x)
    for _ in range(iterations):
        a = np.concatenate([x[:, None] * t[:, None] ** np.arange(p_degree + 1)[None, :],
                            -f[:, None] * t[:, None] ** np.arange(1, q_degree + 1)[None, :]], axis=1)
        a = a / q_prev[:, None] * weight[:, None]
        sol, *_ = np.linalg.lstsq(a, f / q_prev * weight, rcond=None)
        p = sol[:p_degree + 1]
        q = np.concatenate([[1.0], sol[p_degree + 1:]])
        q_prev = np.polyval(q[::-1], t)
        err = x * np.polyval(p[::-1], t) / q_prev - f
        weight = weight * np.sqrt(np.abs(err) + 1e-30)
        weight = weight / weight.max()
    return p, q, np.abs(err).max()


if __name__ == "__main__":
    p, q, err = fit()
    print("P:", ", ".join(f"{v:.8e}" for v in p))
    print("Q:", ", ".join(f"{v:.8e}" for v in q))
    print(f"max abs error on [0, 4] in double: {err:.3g}")
