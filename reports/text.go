package reports

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// WriteTraceText renders t for a person: the initial configuration, then
// one block per step naming the acting processes and action, with every
// variable and channel that the step changed marked with '*'. A lasso's loop
// is marked where it starts and where it closes.
func WriteTraceText(w io.Writer, t *Trace) error {
	p := &printer{w: w}
	shape := "a path"
	steps := len(t.Steps)
	if t.Kind == "lasso" {
		shape = "a lasso"
	}
	if len(t.RoundEnds) > 0 {
		rounds := len(t.RoundEnds)
		p.printf("%s witness for %s (%s): %s of %d step%s in %d round%s\n", t.Property, t.Spec, paramString(t.Params), shape, steps, plural(steps), rounds, plural(rounds))
	} else {
		p.printf("%s counterexample for %s (%s): %s of %d step%s\n", t.Property, t.Spec, paramString(t.Params), shape, steps, plural(steps))
	}
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
	for i := range t.States {
		if t.LoopStart != nil && *t.LoopStart == i {
			p.printf("-- loop starts here: the steps from state %d on repeat forever --\n", i)
		}
		if i == 0 {
			switch t.Start {
			case "fault":
				p.printf("state 0 (left by a transient fault)\n")
			case "random":
				p.printf("state 0 (a random configuration)\n")
			case "given":
				p.printf("state 0 (the configuration given to start from)\n")
			case "all":
				p.printf("state 0 (a configuration of the full space)\n")
			case "empty-channels":
				p.printf("state 0 (a configuration whose channels are empty)\n")
			default:
				p.printf("state 0 (initial)\n")
			}
			writeState(p, &t.States[0], nil)
			endRounds(0)
			continue
		}
		p.printf("step %d: %s\n", i, stepString(t.Steps[i-1]))
		writeState(p, &t.States[i], &t.States[i-1])
		endRounds(i)
	}
	if t.LoopStart != nil {
		last := len(t.States) - 1
		p.printf("step %d: %s\n", last+1, stepString(t.Steps[last]))
		p.printf("-- back to state %d: the loop closes --\n", *t.LoopStart)
	}
	return p.err
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
