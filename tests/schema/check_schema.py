#!/usr/bin/env python3
"""The JSON Schema of `fastsim schema` against the scenarios of the repository.

Usage: check_schema.py FASTSIM_BINARY SOURCE_DIR

Checks that the schema is a valid draft 2020-12 schema, that every scenario file under
configs/ (recursively; JSON files that are not scenarios, such as sweep specs, baselines
and experiment lists, are skipped by their top-level keys) and the test scenarios
validate against it, and that invalid scenarios (unknown key, negative rate, unknown
algorithm, bad choice, bad parameter, a switch given as a string, ...) are rejected --
each of which `fastsim validate` rejects too -- while parameters written by the
conventions (durations with units, switches as booleans) are accepted by both. Exits 1
on the first failed check.
"""
import copy
import json
import pathlib
import subprocess
import sys

import jsonschema

# Top-level keys of JSON files in configs/ that are not scenarios.
NOT_SCENARIO_KEYS = {"base", "grid", "zip", "scenarios", "experiments", "rows"}  # rows: published.json


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def main():
    binary, source = sys.argv[1], pathlib.Path(sys.argv[2])
    out = subprocess.run([binary, "schema"], check=True, capture_output=True, text=True).stdout
    schema = json.loads(out)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)

    files = sorted((source / "configs").rglob("*.json")) + [
        source / "tests/golden/scenario.json",
        source / "tests/regression/dumbbell.json",
        source / "tests/regression/mixed_rtt.json",
    ]
    checked = 0
    for f in files:
        doc = json.loads(f.read_text())
        if not isinstance(doc, dict) or NOT_SCENARIO_KEYS & doc.keys():
            print(f"skip (not a scenario): {f.relative_to(source)}")
            continue
        errors = list(validator.iter_errors(doc))
        if errors:
            fail(f"{f}: " + "; ".join(f"{e.json_path}: {e.message}" for e in errors[:5]))
        checked += 1
    if checked < 30:
        fail(f"only {checked} scenario files checked")
    print(f"{checked} scenario files valid against the schema")

    base = json.loads((source / "configs/demo.json").read_text())
    cubic = copy.deepcopy(base)
    cubic["flows"][0]["algorithm"] = "cubic"

    fast = copy.deepcopy(base)
    fast["flows"][0]["algorithm"] = "fast"

    def changed(doc, edit):
        d = copy.deepcopy(doc)
        edit(d)
        return d

    def set_in(path, value):
        def edit(d):
            target = d
            for p in path[:-1]:
                target = target[p]
            target[path[-1]] = value
        return edit

    # The conventions of algorithm parameters: durations in seconds, switches true/false.
    valid = {
        "duration parameter with a unit": changed(fast, set_in(["flows", 0, "params"], {"update_interval": "10ms"})),
        "switch as a boolean": changed(cubic, set_in(["flows", 0, "params"], {"tcp_friendly": False})),
        "buffer as a fraction of a BDP": changed(
            base, set_in(["topology", "dumbbell", "bottleneck", "buffer"], {"bdp_fraction": 0.5, "of": "80ms"})),
    }
    for name, doc in valid.items():
        errors = list(validator.iter_errors(doc))
        if errors:
            fail(f"the schema rejects a valid scenario ({name}): {errors[0].message}")
        tmp = pathlib.Path("/tmp/fastsim-schema-check-valid.json")
        tmp.write_text(json.dumps(doc))
        rc = subprocess.run([binary, "validate", str(tmp)], capture_output=True).returncode
        tmp.unlink()
        if rc != 0:
            fail(f"fastsim validate exits {rc} on a valid scenario ({name})")

    invalid = {
        "unknown top-level key": changed(base, set_in(["durration"], "10s")),
        "unknown flow key": changed(base, set_in(["flows", 0, "rt"], "10ms")),
        "negative rate": changed(base, set_in(["topology", "dumbbell", "bottleneck", "rate"], "-10Mbps")),
        "negative rate as a number": changed(base, set_in(["topology", "dumbbell", "bottleneck", "rate"], -5)),
        "rate without a unit we know": changed(base, set_in(["topology", "dumbbell", "bottleneck", "rate"], "10Mbytes")),
        "unknown algorithm": changed(base, set_in(["flows", 0, "algorithm"], "cubc")),
        "bad choice (stack)": changed(base, set_in(["defaults"], {"stack": "bsd"})),
        "bad choice (direction)": changed(base, set_in(["flows", 0, "direction"], "sideways")),
        "parameter of another algorithm": changed(cubic, set_in(["flows", 0, "params"], {"alpha": 2})),
        "parameter out of range": changed(cubic, set_in(["flows", 0, "params"], {"beta": 7})),
        "bad parameter choice": changed(cubic, set_in(["flows", 0, "params"], {"hystart": "maybe"})),
        "reno's parameters when no algorithm is named": changed(
            base, lambda d: (d["flows"][0].pop("algorithm", None), d["flows"][0].update(params={"beta": 0.7}))),
        "bad TCP setting type": changed(base, set_in(["defaults"], {"sack": "yes"})),
        "missing duration": changed(base, lambda d: d.pop("duration")),
        "switch given as a string": changed(cubic, set_in(["flows", 0, "params"], {"tcp_friendly": "yes"})),
        "switch given as 1": changed(cubic, set_in(["flows", 0, "params"], {"tcp_friendly": 1})),
        "BDP buffer without \"of\"": changed(
            base, set_in(["topology", "dumbbell", "bottleneck", "buffer"], {"bdp_fraction": 0.5})),
        "BDP buffer with an unknown key": changed(
            base, set_in(["topology", "dumbbell", "bottleneck", "buffer"], {"bdp_fraction": 0.5, "of": "1s", "x": 1})),
        "negative duration parameter": changed(fast, set_in(["flows", 0, "params"], {"mi_qdelay": "-1ms"})),
        "bad id": changed(base, set_in(["flows", 0, "id"], "a b")),
    }
    for name, doc in invalid.items():
        if validator.is_valid(doc):
            fail(f"the schema accepts an invalid scenario ({name}): {json.dumps(doc)}")
        # fastsim itself must refuse it too: the schema is no stricter than the validator.
        tmp = pathlib.Path(f"/tmp/fastsim-schema-check-{name.replace(' ', '-').replace('(', '').replace(')', '')}.json")
        tmp.write_text(json.dumps(doc))
        rc = subprocess.run([binary, "validate", str(tmp)], capture_output=True).returncode
        tmp.unlink()
        if rc != 1:
            fail(f"fastsim validate exits {rc}, not 1, on the invalid scenario ({name})")
    print(f"{len(invalid)} invalid scenarios rejected by the schema and by fastsim validate")


if __name__ == "__main__":
    main()
