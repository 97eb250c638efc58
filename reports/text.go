package reports

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// WriteTraceText renders t for a person: its title, the configuration it
// starts from, then one block per step naming the acting processes and
// action, with every variable and channel that the step changed marked
// with '*'. A lasso's loop is marked where it starts (just above the
// variables of the state it starts at, so that the step leading into that
// state is outside it) and where it closes.
func WriteTraceText(w io.Writer, t *Trace) error {
	p := &printer{w: w}
	p.printf("%s\n", traceTitle(t))
	switch {
	case t.Process != nil && t.Property == "starvation":
		p.printf("process %d requests and never enters its critical section", *t.Process)
		if t.LoopStart != nil {
			p.printf(": it waits in every state of the loop")
		}
		p.printf("\n")
	case t.Process != nil:
		p.printf("the violation is process %d's\n", *t.Process)
	}
	round := 0 // the rounds whose end has been marked
	endRounds := func(steps int) {
		for round < len(t.RoundEnds) && t.RoundEnds[round] <= steps {
			round++
			p.printf("-- end of round %d --\n", round)
		}
	}
	loopStarts := func(i int) {
		if t.LoopStart == nil || *t.LoopStart != i {
			return
		}
		first, last := i+1, len(t.Steps)
		if first == last {
			p.printf("-- the loop starts at state %d, below: step %d repeats forever --\n", i, first)
		} else {
			p.printf("-- the loop starts at state %d, below: steps %d to %d repeat forever --\n", i, first, last)
		}
	}
	for i := range t.States {
		var prev *TraceState
		if i == 0 {
			p.printf("%s\n", stateHeading(t, 0))
		} else {
			p.printf("step %d: %s\n", i, stepString(t.Steps[i-1]))
			prev = &t.States[i-1]
		}
		loopStarts(i)
		writeState(p, &t.States[i], prev)
		endRounds(i)
	}
	if t.LoopStart != nil {
		last := len(t.States) - 1
		p.printf("step %d: %s\n", last+1, stepString(t.Steps[last]))
		p.printf("-- back to state %d: the loop closes --\n", *t.LoopStart)
	}
	return p.err
}

// witnessProperty is the property of a trace that violates nothing but
// shows how a configuration converges: the worst case of convergence
// (check's stabilization witness) or a run measured in rounds.
const witnessProperty = "stabilization"

// traceTitle is the first line of the text rendering and the title of
// the DOT, Mermaid and SVG renderings (which add the process, see
// graphTitle): the property, whether the trace is a counterexample or a
// witness, the spec and its parameters, the trace's shape and length, and
// for an execution measured in rounds, its rounds.
func traceTitle(t *Trace) string {
	what := "counterexample"
	if t.Property == witnessProperty || len(t.RoundEnds) > 0 {
		what = "witness"
	}
	shape := "a path"
	if t.Kind == "lasso" {
		shape = "a lasso"
	}
	steps := len(t.Steps)
	title := t.Property + " " + what + " for " + t.Spec + " (" + paramString(t.Params) + "): " +
		shape + " of " + strconv.Itoa(steps) + " step" + plural(steps)
	if rounds := len(t.RoundEnds); rounds > 0 {
		title += " in " + strconv.Itoa(rounds) + " round" + plural(rounds)
	}
	return title
}

// graphTitle is the title of the DOT, Mermaid and SVG renderings:
// traceTitle, plus the process the violation is about, which the text
// rendering says on the line after its title.
func graphTitle(t *Trace) string {
	title := traceTitle(t)
	if t.Process != nil {
		title += ", process " + strconv.Itoa(*t.Process)
	}
	return title
}

// startName says what a trace's first state is, from its Start.
func startName(start string) string {
	switch start {
	case "fault":
		return "left by a transient fault"
	case "random":
		return "a random configuration"
	case "given":
		return "the configuration given to start from"
	case "all":
		return "a configuration of the full space"
	case "empty-channels":
		return "a configuration whose channels are empty"
	case "start":
		return "a configuration where the start predicate holds"
	}
	return "initial"
}

// stateHeading is the heading of state i of t: every rendering heads
// state 0 with it, saying what the trace starts from ("state 0 (initial)",
// "state 0 (a random configuration)"); the DOT rendering heads every
// other state with it too, as "state i".
func stateHeading(t *Trace, i int) string {
	if i == 0 {
		return "state 0 (" + startName(t.Start) + ")"
	}
	return "state " + strconv.Itoa(i)
}

func stepString(s TraceStep) string {
	procs := make([]string, len(s.Processes))
	for i, q := range s.Processes {
		procs[i] = "p" + strconv.Itoa(q)
	}
	out := strings.Join(procs, ",") + " " + s.Action
	if s.Overflow {
		out += "  [overflows a channel: violates its bound]"
	}
	if s.RangeFault != "" {
		out += "  [" + s.RangeFault + ": violates safety]"
	}
	return out
}

func writeState(p *printer, s, prev *TraceState) {
	width := len("p") + len(strconv.Itoa(len(s.Processes)-1))
	for i, proc := range s.Processes {
		var old Fields
		if prev != nil {
			old = prev.Processes[i].Vars
		}
		p.printf("  %-*s  %s\n", width, "p"+strconv.Itoa(proc.ID), fieldsString(proc.Vars, old, prev != nil))
	}
	for i, ch := range s.Channels {
		mark := ""
		if prev != nil && !sameMessages(ch.Messages, prev.Channels[i].Messages) {
			mark = " *"
		}
		msgs := make([]string, len(ch.Messages))
		for j, m := range ch.Messages {
			msgs[j] = messageString(m)
		}
		p.printf("  %d→%d  [%s]%s\n", ch.From, ch.To, strings.Join(msgs, " "), mark)
	}
}

func fieldsString(fs, old Fields, mark bool) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.Name + "=" + f.Value
		if mark && (i >= len(old) || old[i] != f) {
			parts[i] += "*"
		}
	}
	return strings.Join(parts, " ")
}

func messageString(m TraceMessage) string {
	if len(m.Fields) == 0 {
		return m.Type
	}
	return m.Type + "(" + fieldsString(m.Fields, nil, false) + ")"
}

func sameMessages(a, b []TraceMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Type != b[i].Type || len(a[i].Fields) != len(b[i].Fields) {
			return false
		}
		for j := range a[i].Fields {
			if a[i].Fields[j] != b[i].Fields[j] {
				return false
			}
		}
	}
	return true
}

// paramString renders parameters sorted by name, as "K=3 n=5".
func paramString(params map[string]int) string {
	parts := make([]string, 0, len(params))
	for _, name := range slices.Sorted(maps.Keys(params)) {
		parts = append(parts, name+"="+strconv.Itoa(params[name]))
	}
	return strings.Join(parts, " ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// printer remembers the first write error, so renderers can write freely
// and report once.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}
