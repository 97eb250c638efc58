package cli

import (
	"encoding/json"
	"os"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdTracedit is the scripts' "tracedit IN OUT EDIT...": it writes the
// JSON trace IN to OUT, edited by each EDIT in turn: drop-last removes the
// last state and the last step of a path, KEY=JSON sets a top-level field
// and -KEY removes one.
func cmdTracedit(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: tracedit IN OUT EDIT...")
	}
	var tr map[string]json.RawMessage
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &tr); err != nil {
		ts.Fatalf("tracedit: %s: %v", args[0], err)
	}
	for _, edit := range args[2:] {
		key, value, set := strings.Cut(edit, "=")
		switch {
		case edit == "drop-last":
			var states, steps []json.RawMessage
			if json.Unmarshal(tr["states"], &states) != nil || json.Unmarshal(tr["steps"], &steps) != nil || len(steps) == 0 {
				ts.Fatalf("tracedit: drop-last needs a path with a step")
			}
			tr["states"], _ = json.Marshal(states[:len(states)-1])
			tr["steps"], _ = json.Marshal(steps[:len(steps)-1])
		case set:
			if !json.Valid([]byte(value)) {
				ts.Fatalf("tracedit: %s: %q is not JSON", key, value)
			}
			tr[key] = json.RawMessage(value)
		case strings.HasPrefix(edit, "-"):
			delete(tr, edit[1:])
		default:
			ts.Fatalf("tracedit: %q is not drop-last, KEY=JSON or -KEY", edit)
		}
	}
	out, err := json.MarshalIndent(tr, "", "  ")
	if err != nil {
		ts.Fatalf("tracedit: %v", err)
	}
	if err := os.WriteFile(ts.MkAbs(args[1]), out, 0o666); err != nil {
		ts.Fatalf("tracedit: %v", err)
	}
}
