"""Mean and Student-t confidence interval over replications, as `fastsim collect` computes
them (aggregate.csv): n, mean, sample standard deviation (n - 1), and
mean -+ t(0.5 + level / 2, n - 1) * sd / sqrt(n); no interval when n < 2.

`t_quantile` is computed here (standard library: the regularized incomplete beta function
by its continued fraction, inverted by bisection) so that no SciPy is needed; it agrees
with Boost.Math, which collect uses, to about 1e-12.
"""

import math

__all__ = ["t_quantile", "mean_ci", "summarize"]


def _betacf(a, b, x):
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return h


def _betainc(a, b, x):
    """Regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def _t_cdf(t, df):
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p, df):
    """The p-quantile of Student's t distribution with df > 0 degrees of freedom."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"t_quantile: p must be in (0, 1), got {p}")
    if not df > 0:
        raise ValueError(f"t_quantile: df must be > 0, got {df}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while _t_cdf(hi, df) < p:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if _t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def mean_ci(values, level=0.95):
    """(n, mean, sd, ci_low, ci_high) of the finite values; NaN where undefined
    (everything when there are none; sd and the interval when n < 2)."""
    x = [float(v) for v in values if v is not None and math.isfinite(float(v))]
    n = len(x)
    nan = math.nan
    if n == 0:
        return 0, nan, nan, nan, nan
    mean = sum(x) / n
    if n < 2:
        return n, mean, nan, nan, nan
    sd = math.sqrt(sum((v - mean) ** 2 for v in x) / (n - 1))
    half = t_quantile(0.5 + level / 2.0, n - 1) * sd / math.sqrt(n)
    return n, mean, sd, mean - half, mean + half


def summarize(data, value, by, level=0.95):
    """One row per group of `data` (a DataFrame) by the columns `by`: the columns of `by`,
    then n, mean, sd, ci_low, ci_high of the column `value` (see mean_ci). Groups are in
    sorted order (numbers by value); a group key that is empty (NaN) is kept."""
    import pandas as pd

    by = [by] if isinstance(by, str) else list(by)
    rows = []
    if by:
        groups = data.groupby(by if len(by) > 1 else by[0], dropna=False, sort=True)
    else:
        groups = [((), data)]
    for key, group in groups:
        key = key if isinstance(key, tuple) else (key,)
        n, mean, sd, lo, hi = mean_ci(pd.to_numeric(group[value], errors="coerce").tolist(), level)
        rows.append(dict(zip(by, key), n=n, mean=mean, sd=sd, ci_low=lo, ci_high=hi))
    return pd.DataFrame(rows, columns=by + ["n", "mean", "sd", "ci_low", "ci_high"])
