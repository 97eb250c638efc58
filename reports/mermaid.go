package reports

import (
	"io"
	"strconv"
	"strings"
)

// WriteTraceMermaid renders t as a Mermaid sequence diagram: one
// participant per process; per step, a note over each acting process with
// the step's number, the action, what it received and the variables it
// changed, then an arrow for every message the step sent (from the
// channel's sender to its receiver, labelled with the message). A lasso's
// steps from loop_start on are inside a loop block. A note over every
// process heads state 0 as the text rendering does (what the trace starts
// from), and messages already in the channels at the start are a note.
// Sends and receipts are inferred from the channels' contents (see
// channelDelta). Labels go through mermaidText, which replaces what
// Mermaid would read as syntax.
func WriteTraceMermaid(w io.Writer, t *Trace) error {
	p := &printer{w: w}
	p.printf("sequenceDiagram\n")
	p.printf("  title %s\n", mermaidText(graphTitle(t)))
	n := len(t.States[0].Processes)
	for i := range n {
		p.printf("  participant p%d\n", i)
	}
	all := "p0"
	if n > 1 {
		all += ",p" + strconv.Itoa(n-1)
	}
	p.printf("  Note over %s: %s\n", all, mermaidText(stateHeading(t, 0)))
	for _, ch := range t.States[0].Channels {
		if len(ch.Messages) == 0 {
			continue
		}
		over := "p" + strconv.Itoa(ch.From)
		if ch.To != ch.From {
			over += ",p" + strconv.Itoa(ch.To)
		}
		p.printf("  Note over %s: initially in %d→%d: %s\n", over, ch.From, ch.To, mermaidText(messagesString(ch.Messages)))
	}
	indent := "  "
	for i, s := range t.Steps {
		if t.LoopStart != nil && i == *t.LoopStart {
			p.printf("  loop from state %d, forever\n", i)
			indent = "    "
		}
		prev, next := &t.States[i], stepTarget(t, i)
		// What each acting process received, by receiver.
		received := map[int][]string{}
		var sends []string
		for c, ch := range prev.Channels {
			recv, sent := channelDelta(ch.Messages, next.Channels[c].Messages)
			for _, m := range ch.Messages[:recv] {
				received[ch.To] = append(received[ch.To], messageString(m)+" from p"+strconv.Itoa(ch.From))
			}
			for _, m := range sent {
				sends = append(sends, indent+"p"+strconv.Itoa(ch.From)+"->>p"+strconv.Itoa(ch.To)+": "+mermaidText(messageString(m)))
			}
		}
		for _, q := range s.Processes {
			note := strconv.Itoa(i+1) + ". " + s.Action
			if s.Overflow {
				note += " (overflows a channel)"
			}
			if s.RangeFault != "" {
				note += " (" + s.RangeFault + ")"
			}
			if r := received[q]; len(r) > 0 {
				note += ", receives " + strings.Join(r, " and ")
			}
			if q < len(prev.Processes) && q < len(next.Processes) {
				if ch := changedFields(next.Processes[q].Vars, prev.Processes[q].Vars); ch != "" {
					note += ", " + ch
				}
			}
			p.printf("%sNote over p%d: %s\n", indent, q, mermaidText(note))
		}
		for _, l := range sends {
			p.printf("%s\n", l)
		}
	}
	if t.LoopStart != nil {
		p.printf("  end\n")
	}
	return p.err
}

// stepTarget is the state step i leads to: the next one, or for a lasso's
// last step the state its loop starts at.
func stepTarget(t *Trace, i int) *TraceState {
	if i+1 < len(t.States) {
		return &t.States[i+1]
	}
	return &t.States[*t.LoopStart]
}

// channelDelta explains how a FIFO channel went from old to new contents
// with the fewest receipts: recv messages were taken from old's head and
// sent were appended at the tail. The channel being FIFO, old[recv:] is
// what remains and is a prefix of new. When no such explanation exists (a
// message dropped or the contents rewritten), everything old is received
// and everything new sent.
func channelDelta(old, new []TraceMessage) (recv int, sent []TraceMessage) {
	if sameMessages(old, new) {
		return 0, nil
	}
	for r := 0; r <= len(old); r++ {
		rest := old[r:]
		if len(rest) <= len(new) && sameMessages(rest, new[:len(rest)]) {
			return r, new[len(rest):]
		}
	}
	return len(old), new
}

// changedFields lists the fields of fs that differ from old, as name=value.
func changedFields(fs, old Fields) string {
	var parts []string
	for i, f := range fs {
		if i >= len(old) || old[i] != f {
			parts = append(parts, f.Name+"="+f.Value)
		}
	}
	return strings.Join(parts, " ")
}

func messagesString(ms []TraceMessage) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = messageString(m)
	}
	return strings.Join(parts, " ")
}

// mermaidText makes s safe as the text of a Mermaid message or note: ';'
// and '#' (statement separator and entity code start) become the entity
// codes #59; and #35;, '<' and '>' #60; and #62; (Mermaid would read
// HTML), line breaks a space.
var mermaidText = strings.NewReplacer(
	";", "#59;",
	"#", "#35;",
	"<", "#60;",
	">", "#62;",
	"\r\n", " ",
	"\n", " ",
	"\r", " ",
).Replace
