package reports

import (
	"io"
	"strconv"
	"strings"
)

// WriteTraceDOT renders t as a Graphviz digraph: one box per state (every
// process's variables, one line each, changed ones marked with '*', then
// the channels that hold messages), one edge per step labelled with its
// number, the acting processes and the action, and for a lasso the step
// that closes the loop as a dashed edge from the last state back to
// states[loop_start]. The output is written in trace order with no map
// iteration, so it is the same bytes on every run, and every label is a
// quoted DOT string with '"' and '\' escaped and line breaks written as
// \l (left-aligned lines), so `dot` accepts any variable or message text.
func WriteTraceDOT(w io.Writer, t *Trace) error {
	p := &printer{w: w}
	p.printf("digraph trace {\n")
	p.printf("  label=%s;\n", dotQuote(graphTitle(t)))
	p.printf("  labelloc=t;\n")
	p.printf("  fontname=\"monospace\";\n")
	p.printf("  node [shape=box, fontname=\"monospace\", fontsize=10];\n")
	p.printf("  edge [fontname=\"monospace\", fontsize=10];\n")
	for i := range t.States {
		var prev *TraceState
		if i > 0 {
			prev = &t.States[i-1]
		}
		head := stateHeading(t, i)
		if t.LoopStart != nil && *t.LoopStart == i {
			head += " (loop starts)"
		}
		lines := append([]string{head}, stateLines(&t.States[i], prev)...)
		attrs := ""
		if t.LoopStart != nil && *t.LoopStart == i {
			attrs = ", peripheries=2"
		}
		p.printf("  s%d [label=%s%s];\n", i, dotLines(lines), attrs)
	}
	for i, s := range t.Steps {
		from, to := i, i+1
		style := ""
		if i == len(t.States)-1 { // the lasso's step back
			to = *t.LoopStart
			style = ", style=dashed, constraint=false"
		}
		if s.Overflow || s.RangeFault != "" {
			style += ", color=red, fontcolor=red"
		}
		p.printf("  s%d -> s%d [label=%s%s];\n", from, to, dotQuote(strconv.Itoa(i+1)+": "+stepString(s)), style)
	}
	p.printf("}\n")
	return p.err
}

// stateLines are a state's lines: each process's variables (marked '*'
// where they differ from prev, when there is one), then every channel
// that holds messages.
func stateLines(s, prev *TraceState) []string {
	var lines []string
	for i, proc := range s.Processes {
		var old Fields
		if prev != nil {
			old = prev.Processes[i].Vars
		}
		lines = append(lines, "p"+strconv.Itoa(proc.ID)+"  "+fieldsString(proc.Vars, old, prev != nil))
	}
	for _, ch := range s.Channels {
		if len(ch.Messages) == 0 {
			continue
		}
		msgs := make([]string, len(ch.Messages))
		for j, m := range ch.Messages {
			msgs[j] = messageString(m)
		}
		lines = append(lines, strconv.Itoa(ch.From)+"→"+strconv.Itoa(ch.To)+"  ["+strings.Join(msgs, " ")+"]")
	}
	return lines
}

// dotLines is a quoted label of left-aligned lines.
func dotLines(lines []string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, l := range lines {
		b.WriteString(dotEscape(l))
		b.WriteString(`\l`)
	}
	b.WriteByte('"')
	return b.String()
}

// dotQuote is s as a quoted DOT string, centred.
func dotQuote(s string) string { return `"` + dotEscape(s) + `"` }

// dotEscape escapes s for a DOT quoted string: a backslash is doubled (DOT
// would read \l, \N and the like as escapes), a quote is \", and a line
// break in a value becomes \l. '<', '>', '{', '}' and '|' need nothing in
// a quoted label of a box (they matter only in record shapes and HTML
// labels, which these are not).
func dotEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\n':
			b.WriteString(`\l`)
		case '\r':
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
