"""fastsim's run and sweep outputs as pandas DataFrames (docs/python.md).

    from fastsim_results import load_run, load_sweep
    run = load_run("out/demo")         # summary, flows, links, intervals, traces
    sweep = load_sweep("out/rtt")      # runs, flows, aggregates; parameters as numbers
    trace = load_packet_trace("out/demo")  # per-packet events (output/packet_trace)

The names below are imported on first use, so that `fastsim_results.interpreter` (standard
library only) can be imported by a Python that has no pandas.
"""

__version__ = "0.1.0"

_EXPORTS = {
    "load_run": "run",
    "Run": "run",
    "load_sweep": "sweep",
    "Sweep": "sweep",
    "Parameter": "sweep",
    "mean_ci": "stats",
    "t_quantile": "stats",
    "summarize": "stats",
    "load_packet_trace": "packet_trace",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    if name in _EXPORTS:
        import importlib

        module = importlib.import_module(f".{_EXPORTS[name]}", __name__)
        return getattr(module, name)
    raise AttributeError(f"module 'fastsim_results' has no attribute '{name}'")
