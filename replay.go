package ringcheck

import (
	"fmt"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/replay"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/specs"
)

// Replay checks that trace t is an execution of spec: it builds the system
// the trace names (its parameters, daemon and overflow policy) and replays
// it (package replay). A trace of another version of a .ring file, or
// whose parameters or options the spec refuses, is an error; one that is
// not an execution of the system is a *replay.Failure naming the first
// state or step at fault.
func Replay(spec *specs.Spec, t *reports.Trace) error {
	sys, err := TraceSystem(spec, t)
	if err != nil {
		return err
	}
	return replay.Check(sys, t)
}

// TraceSystem builds the system trace t names, of spec: its parameters,
// daemon and overflow policy. A trace of another spec or of another
// version of a .ring file, or whose parameters or options the spec
// refuses, is an error.
func TraceSystem(spec *specs.Spec, t *reports.Trace) (*model.System, error) {
	if t.Spec != spec.Name {
		return nil, fmt.Errorf("a trace of %s, not of %s", t.Spec, spec.Name)
	}
	if f := t.SpecFile; f != nil && spec.FileHash != "" && f.SHA256 != spec.FileHash {
		return nil, fmt.Errorf("a trace of another version of %s (its sha256 is %.12s…, the file's now %.12s…)", f.Path, f.SHA256, spec.FileHash)
	}
	req := &Request{Spec: spec, Params: t.Params}
	if t.Daemon != "" {
		d, err := model.ParseDaemon(t.Daemon)
		if err != nil {
			return nil, fmt.Errorf(`the trace's "daemon": %w`, err)
		}
		req.Daemon = d
	}
	if t.Overflow != "" {
		o, err := model.ParseOverflow(t.Overflow)
		if err != nil {
			return nil, fmt.Errorf(`the trace's "overflow": %w`, err)
		}
		req.Overflow = &o
	}
	sys, err := req.System()
	if err != nil {
		return nil, fmt.Errorf(`the trace's "params" (%s): %w`, specs.Values(t.Params), err)
	}
	return sys, nil
}
