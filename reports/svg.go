package reports

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// SVG layout, in pixels. Text is monospace, so its width is about 0.6 of
// its font size per character.
const (
	svgLeft     = 110 // the least left margin: row labels and the loop bracket
	svgBracket  = 42  // the loop bracket and a gap, left of the row labels
	svgTop      = 70  // title and process headings
	svgRowH     = 50
	svgMinColW  = 170
	svgFontBody = 11 // action names
	svgFontVars = 10 // variables, messages, row labels
	svgCharW    = 6.6
	svgLabelW   = svgCharW * svgFontVars / svgFontBody // a character of a row label
)

// WriteTraceSVG renders t as a space-time diagram: one column per process,
// left to right, time going down, one row per step. Each step is a filled
// mark on the column of every acting process with the action beside it
// and the process's variables (changed ones marked '*') under it; state 0
// shows every process's variables, and its row label says what the trace
// starts from, as the text rendering does. Messages are arrows from the
// sender's column at the step that sent them to the receiver's column at
// the step that received them: sends and receipts are inferred from the
// channels' contents (channelDelta) and matched first in, first out; a
// message between the first and the last column (round the ring) is two
// short arcs, out past the nearer edge and back in from the other; each
// message's label is placed where it overlaps no other label if it can; a
// message already in a channel at the start starts at the top edge, and
// one never received ends, dashed, at the bottom. A lasso's loop is
// bracketed on the left from loop_start to its last step, which leads back
// to the state the loop starts at. Each row has a transparent band, a
// rect of class "row" whose data-row is the row's index. The drawing's
// size follows the number of processes and steps (and its left margin the
// longest row label); all
// text is escaped with encoding/xml, and the output is the same bytes on
// every run.
func WriteTraceSVG(w io.Writer, t *Trace) error {
	n := len(t.States[0].Processes)
	m := len(t.Steps)
	// A column is as wide as its longest text.
	longest := 0
	for _, s := range t.States {
		for _, proc := range s.Processes {
			longest = max(longest, utf8.RuneCountInString(fieldsString(proc.Vars, proc.Vars, true)))
		}
	}
	for _, s := range t.Steps {
		longest = max(longest, utf8.RuneCountInString(svgAction(s)))
	}
	colW := max(svgMinColW, int(float64(longest)*svgCharW)+40)
	// One label a row, right-aligned 12 pixels left of the first column:
	// state 0 is headed as in the text rendering (what the trace starts
	// from), and the margin is as wide as the longest label.
	labels := make([]string, m+1)
	left := svgLeft
	for k := range labels {
		label := stateHeading(t, 0)
		if k > 0 {
			label = "step " + strconv.Itoa(k)
		}
		if t.LoopStart != nil && k == m {
			label += " → " + strconv.Itoa(*t.LoopStart)
		}
		labels[k] = label
		left = max(left, svgBracket+int(math.Ceil(float64(utf8.RuneCountInString(label))*svgLabelW))+12)
	}
	colX := func(p int) int { return left + p*colW + 20 }
	rowY := func(k int) int { return svgTop + 20 + k*svgRowH }
	bottom := rowY(m) + svgRowH - 10
	title := graphTitle(t)
	width := max(left+n*colW+20, int(float64(utf8.RuneCountInString(title))*7.2)+40)
	height := bottom + 20

	var b strings.Builder
	fmt.Fprintf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"monospace\">\n", width, height, width, height)
	b.WriteString("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#0563c1\"/></marker></defs>\n")
	fmt.Fprintf(&b, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n", width, height)
	fmt.Fprintf(&b, "<text x=\"10\" y=\"20\" font-size=\"12\">%s</text>\n", svgText(title))
	for p := range n {
		x := colX(p)
		fmt.Fprintf(&b, "<text x=\"%d\" y=\"%d\" font-size=\"14\" font-weight=\"bold\" text-anchor=\"middle\">p%d</text>\n", x, svgTop-20, p)
		fmt.Fprintf(&b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#bbbbbb\"/>\n", x, svgTop-10, x, bottom)
	}
	// One band a row, transparent, under everything: a page showing the
	// diagram highlights the current step's (data-row is the state index).
	for k := range labels {
		fmt.Fprintf(&b, "<rect class=\"row\" data-row=\"%d\" x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\"/>\n", k, rowY(k)-svgRowH/2+8, width, svgRowH)
	}
	for k, label := range labels {
		fmt.Fprintf(&b, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"end\" fill=\"#666666\">%s</text>\n", left-12, rowY(k)+4, svgFontVars, svgText(label))
	}
	if t.LoopStart != nil {
		y1, y2 := rowY(*t.LoopStart), rowY(m)
		fmt.Fprintf(&b, "<path d=\"M 36 %d H 26 V %d H 36\" fill=\"none\" stroke=\"black\" stroke-width=\"1.5\"/>\n", y1, y2)
		mid := (y1 + y2) / 2
		fmt.Fprintf(&b, "<text x=\"18\" y=\"%d\" font-size=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 18 %d)\">loop</text>\n", mid, svgFontBody, mid)
	}

	// Messages: per channel, the y of every message in it, oldest first.
	queues := make([][]int, len(t.States[0].Channels))
	for c, ch := range t.States[0].Channels {
		for range ch.Messages {
			queues[c] = append(queues[c], svgTop-10)
		}
	}
	// Message labels are placed apart: each at the first of a few points
	// along its arrow where it overlaps no label placed before it.
	var placed [][4]float64
	label := func(x1, y1, x2, y2 float64, text string) {
		w := float64(utf8.RuneCountInString(text)) * svgLabelW
		var x, y float64
		for i, f := range []float64{0.5, 0.7, 0.3, 0.85, 0.15} {
			x, y = x1+(x2-x1)*f, y1+(y2-y1)*f-3
			box := [4]float64{x - w/2 - 2, y - 9, x + w/2 + 2, y + 2}
			free := true
			for _, o := range placed {
				if box[0] < o[2] && o[0] < box[2] && box[1] < o[3] && o[1] < box[3] {
					free = false
					break
				}
			}
			if free || i == 4 {
				if !free {
					x, y = x1+(x2-x1)*0.5, y1+(y2-y1)*0.5-3
					box = [4]float64{x - w/2 - 2, y - 9, x + w/2 + 2, y + 2}
				}
				placed = append(placed, box)
				break
			}
		}
		fmt.Fprintf(&b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" fill=\"#0563c1\" text-anchor=\"middle\">%s</text>\n", x, y, svgFontVars, svgText(text))
	}
	arrow := func(from, y1, to, y2 int, text string, dashed bool) {
		x1, x2 := float64(colX(from)), float64(colX(to))
		fy1, fy2 := float64(y1), float64(y2)
		dash := ""
		if dashed {
			dash = " stroke-dasharray=\"4 3\""
		}
		if d := from - to; n > 2 && (d == n-1 || d == 1-n) {
			// A message between the first and the last column goes
			// round the ring: it leaves its sender's column towards the
			// nearer edge and comes back to its receiver from the other,
			// two short arcs instead of an arrow across every column.
			out := 1.0
			if from < to {
				out = -1
			}
			const stub = 30
			mid := (fy1 + fy2) / 2
			fmt.Fprintf(&b, "<path d=\"M %.1f %.1f Q %.1f %.1f %.1f %.1f\" fill=\"none\" stroke=\"#0563c1\"%s/>\n", x1, fy1, x1+out*stub, fy1, x1+out*stub, mid, dash)
			sx := x2 - out*stub
			fmt.Fprintf(&b, "<path d=\"M %.1f %.1f Q %.1f %.1f %.1f %.1f\" fill=\"none\" stroke=\"#0563c1\" marker-end=\"url(#arrow)\"%s/>\n", sx, mid, sx, fy2, x2-out*6, fy2, dash)
			label(sx, mid, x2, fy2, text)
			return
		}
		// Stop short of the mark, so the head shows.
		dx, dy := x2-x1, fy2-fy1
		if l := math.Hypot(dx, dy); l > 12 {
			x2 -= dx / l * 6
			fy2 -= dy / l * 6
		}
		fmt.Fprintf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#0563c1\" marker-end=\"url(#arrow)\"%s/>\n", x1, fy1, x2, fy2, dash)
		label(x1, fy1, x2, fy2, text)
	}
	for i := range t.Steps {
		prev, next := &t.States[i], stepTarget(t, i)
		y := rowY(i + 1)
		for c, ch := range prev.Channels {
			recv, sent := channelDelta(ch.Messages, next.Channels[c].Messages)
			for _, msg := range ch.Messages[:recv] {
				from := svgTop - 10
				if len(queues[c]) > 0 {
					from, queues[c] = queues[c][0], queues[c][1:]
				}
				arrow(ch.From, from, ch.To, y, messageString(msg), false)
			}
			for range sent {
				queues[c] = append(queues[c], y)
			}
		}
	}
	last := stepTarget(t, m-1)
	if m == 0 {
		last = &t.States[0]
	}
	for c, ch := range last.Channels {
		for j, y := range queues[c] {
			label := ""
			if j < len(ch.Messages) {
				label = messageString(ch.Messages[j])
			}
			arrow(ch.From, y, ch.To, bottom, label, true)
		}
	}

	// Marks and text last, over the arrows.
	for p, proc := range t.States[0].Processes {
		x, y := colX(p), rowY(0)
		fmt.Fprintf(&b, "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"white\" stroke=\"black\"/>\n", x, y)
		fmt.Fprintf(&b, "<text x=\"%d\" y=\"%d\" font-size=\"%d\">%s</text>\n", x+9, y+4, svgFontVars, svgText(fieldsString(proc.Vars, nil, false)))
	}
	for i, s := range t.Steps {
		prev, next := &t.States[i], stepTarget(t, i)
		y := rowY(i + 1)
		color := "black"
		if s.Overflow || s.RangeFault != "" {
			color = "#c00000"
		}
		for _, p := range s.Processes {
			x := colX(p)
			fmt.Fprintf(&b, "<circle cx=\"%d\" cy=\"%d\" r=\"5\" fill=\"%s\"/>\n", x, y, color)
			fmt.Fprintf(&b, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" fill=\"%s\">%s</text>\n", x+9, y+4, svgFontBody, color, svgText(svgAction(s)))
			if p < len(next.Processes) {
				fmt.Fprintf(&b, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" fill=\"#444444\">%s</text>\n", x+9, y+17, svgFontVars, svgText(fieldsString(next.Processes[p].Vars, prev.Processes[p].Vars, true)))
			}
		}
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// svgAction is what is written beside a step's mark.
func svgAction(s TraceStep) string {
	a := s.Action
	if s.Overflow {
		a += " (overflow)"
	}
	if s.RangeFault != "" {
		a += " (" + s.RangeFault + ")"
	}
	return a
}

// svgText is s escaped as XML character data.
func svgText(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
