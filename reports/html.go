package reports

import (
	"bytes"
	"fmt"
	"io"

	"github.com/ringcheck/ringcheck/internal/webui"
	"github.com/ringcheck/ringcheck/model"
)

// Playback is what the explorer's page needs to play a trace back: its
// title (the property violated, the spec and its parameters, the kind of
// execution, the starving process), the trace itself and its space-time
// diagram as SVG (WriteTraceSVG), whose rows the page highlights.
type Playback struct {
	Title string `json:"title"`
	Trace *Trace `json:"trace"`
	SVG   string `json:"svg"`
}

// NewPlayback returns the playback of t.
func NewPlayback(t *Trace) (*Playback, error) {
	var svg bytes.Buffer
	if err := WriteTraceSVG(&svg, t); err != nil {
		return nil, fmt.Errorf("the space-time diagram: %w", err)
	}
	return &Playback{Title: graphTitle(t), Trace: t, SVG: svg.String()}, nil
}

// WriteTraceHTML writes t as one self-contained HTML page: the explorer's
// page (package internal/webui) with its script and style sheet inlined
// and the trace's playback (NewPlayback) embedded as JSON, which steps
// through the trace with the ring drawn beside the space-time diagram. It
// loads nothing from the network, and is the same bytes on every run.
func WriteTraceHTML(w io.Writer, t *Trace) error {
	pb, err := NewPlayback(t)
	if err != nil {
		return err
	}
	page, err := webui.Page(pb)
	if err != nil {
		return err
	}
	_, err = w.Write(page)
	return err
}

// StateOf returns configuration st of sys as a trace state.
func StateOf(sys *model.System, st *model.State) TraceState {
	return traceState(sys.Decode(st))
}
