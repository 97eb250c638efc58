package explorer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/ringcheck/ringcheck/explorer"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/reports"
)

// screenshots makes the browser tests write the screenshots that
// docs/explorer.md shows, docs/images/explorer-*.png.
var screenshots = flag.Bool("screenshots", false, "write docs/images/explorer-*.png from the browser tests")

// chromium returns the path of a Chromium or Chrome to drive: $CHROME,
// or the first of the usual names on PATH. It skips the test where there
// is none, and under -short.
func chromium(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test: skipped under -short")
	}
	if p := os.Getenv("CHROME"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("browser test: no chromium found (apt-get install chromium, or set $CHROME to a Chrome or Chromium binary)")
	return ""
}

// browser starts a headless browser for the test, with a network that
// reaches nothing but the servers of the test (a proxy that does not
// exist for any other address), and returns its context.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.WindowSize(1500, 950),
		chromedp.ProxyServer("http://127.0.0.1:9"),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}

// tab opens a new tab of the browser of ctx for the test.
func tab(t *testing.T, ctx context.Context) context.Context {
	t.Helper()
	c, cancel := chromedp.NewContext(ctx)
	t.Cleanup(cancel)
	if err := chromedp.Do(c); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	return c
}

// TestBrowser drives the explorer's page in one headless browser, a tab
// for each test.
func TestBrowser(t *testing.T) {
	ctx := browser(t)
	t.Run("TracePlayback", func(t *testing.T) { testTracePlayback(t, tab(t, ctx)) })
	t.Run("TakesStep", func(t *testing.T) { testTakesStep(t, tab(t, ctx)) })
	t.Run("Keyboard", func(t *testing.T) { testKeyboard(t, tab(t, ctx)) })
	t.Run("HTMLExports", func(t *testing.T) { testHTMLExports(t, tab(t, ctx)) })
	t.Run("Sweep", func(t *testing.T) { testSweep(t, tab(t, ctx)) })
	t.Run("TypedConfiguration", func(t *testing.T) { testTypedConfiguration(t, tab(t, ctx)) })
}

// do runs actions with a time limit, failing the test on an error.
func do(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if err := chromedp.Do(c, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	v, err := chromedp.Run(c, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// settle waits until the page has no request under way.
func settle() chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](`document.body && document.body.dataset.busy === "0"`, chromedp.WithPollingTimeout(10*time.Second))
}

// atCursor waits until the page shows entry k of its timeline.
func atCursor(k int) chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](`document.getElementById("ring").dataset.cursor === "`+strconv.Itoa(k)+`" && document.body.dataset.busy === "0"`, chromedp.WithPollingTimeout(10*time.Second))
}

// drawn reads the configuration the ring shows from its data- attributes.
func drawn(t *testing.T, ctx context.Context) reports.TraceState {
	t.Helper()
	type raw struct {
		Procs []string `json:"procs"`
		Chans []struct {
			From, To int
			Messages string
		} `json:"chans"`
	}
	r := eval[raw](t, ctx, `({
		procs: Array.from(document.querySelectorAll("#ring g.proc")).map(g => g.dataset.vars),
		chans: Array.from(document.querySelectorAll("#ring g.chan")).map(g => ({From: +g.dataset.from, To: +g.dataset.to, Messages: g.dataset.messages}))
	})`)
	ts := reports.TraceState{Channels: []reports.TraceChannel{}}
	for i, vars := range r.Procs {
		p := reports.TraceProcess{ID: i}
		if err := json.Unmarshal([]byte(vars), &p.Vars); err != nil {
			t.Fatalf("p%d's data-vars %q: %v", i, vars, err)
		}
		ts.Processes = append(ts.Processes, p)
	}
	for _, c := range r.Chans {
		ch := reports.TraceChannel{From: c.From, To: c.To}
		if err := json.Unmarshal([]byte(c.Messages), &ch.Messages); err != nil {
			t.Fatalf("channel %d→%d's data-messages %q: %v", c.From, c.To, c.Messages, err)
		}
		ts.Channels = append(ts.Channels, ch)
	}
	return ts
}

// sameJSON reports whether a and b encode to the same JSON.
func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(ja, jb)
}

// screenshot saves the page as name.png among the test's artifacts
// (go test -artifacts keeps them), and with -screenshots as
// docs/images/explorer-name.png too.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	png, err := chromedp.Run(c, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(filepath.Join(t.ArtifactDir(), name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	if *screenshots {
		if err := os.WriteFile(filepath.Join("..", "docs", "images", "explorer-"+name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// serve starts the explorer over the built-in spec with params, playing
// trace back if it is not nil, and returns its URL.
func serve(t *testing.T, spec string, params map[string]int, trace *reports.Trace) (string, *model.System) {
	t.Helper()
	sys, values := build(t, spec, params)
	h, err := explorer.New(sys, values.String(), trace)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/", sys
}

// testTracePlayback: on kl-pusher's Figure 2 starvation lasso,
// served, the arrow keys step through the trace: at step k the ring draws
// state k of the trace, the space-time diagram highlights row k, and the
// step forward from the last state goes back to the loop's start.
func testTracePlayback(t *testing.T, ctx context.Context) {
	tr, err := reports.ReadTraceFile("testdata/kl-pusher-starvation.json")
	if err != nil {
		t.Fatal(err)
	}
	url, _ := serve(t, tr.Spec, tr.Params, tr)
	do(t, ctx, "load", chromedp.Navigate(url), settle(), atCursor(0))
	if !sameJSON(t, drawn(t, ctx), tr.States[0]) {
		t.Fatalf("state 0 drawn as %+v", drawn(t, ctx))
	}
	const k = 5
	for i := 1; i <= k; i++ {
		do(t, ctx, "ArrowRight", chromedp.KeyEvent(kb.ArrowRight), atCursor(i))
	}
	if got := drawn(t, ctx); !sameJSON(t, got, tr.States[k]) {
		t.Errorf("at step %d the ring draws %+v, the trace's state %d is %+v", k, got, k, tr.States[k])
	}
	if row := eval[string](t, ctx, `document.querySelector("#diagram rect.row.now").dataset.row`); row != strconv.Itoa(k) {
		t.Errorf("the diagram highlights row %s, want %d", row, k)
	}
	title := eval[string](t, ctx, `document.getElementById("title").textContent`)
	if !strings.Contains(title, "starvation counterexample for kl-pusher") || !strings.Contains(title, "process "+strconv.Itoa(*tr.Process)) {
		t.Errorf("title %q does not state the violated property and the starving process", title)
	}
	// The step taken is the trace's: its processes act in the ring.
	step := tr.Steps[k]
	if got := eval[string](t, ctx, `document.querySelector("#actions button.step[data-trace]").dataset.procs`); got != fmt.Sprint(step.Processes[0]) {
		t.Errorf("the trace's next step is by p%v, the page offers p%s", step.Processes, got)
	}
	screenshot(t, ctx, "lasso")
	last := len(tr.States) - 1
	do(t, ctx, "End", chromedp.KeyEvent(kb.End), atCursor(last))
	if got := drawn(t, ctx); !sameJSON(t, got, tr.States[last]) {
		t.Errorf("at the last state the ring draws %+v", got)
	}
	do(t, ctx, "ArrowRight at the end of the lasso", chromedp.KeyEvent(kb.ArrowRight), atCursor(*tr.LoopStart))
	do(t, ctx, "ArrowLeft", chromedp.KeyEvent(kb.ArrowLeft), atCursor(*tr.LoopStart-1))
}

// successor is configuration ts's successor by its enabled step index, as
// the model computes it.
func successor(t *testing.T, sys *model.System, ts reports.TraceState, index int) reports.TraceState {
	t.Helper()
	snap, err := ts.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	st, err := sys.Encode(snap)
	if err != nil {
		t.Fatal(err)
	}
	_, _, next := successors(t, sys, st)
	if index >= len(next) {
		t.Fatalf("the configuration has %d steps, not %d", len(next), index+1)
	}
	return next[index]
}

// testTakesStep: on Dijkstra's ring, n=5, from a random
// configuration, clicking an enabled step draws the model's successor,
// and Back draws the configuration before it again.
func testTakesStep(t *testing.T, ctx context.Context) {
	url, sys := serve(t, "dijkstra", map[string]int{"n": 5, "K": 5}, nil)
	do(t, ctx, "load", chromedp.Navigate(url+"?from=random&seed=3"), settle(), atCursor(0))
	before := drawn(t, ctx)
	if before.Processes == nil || len(before.Processes) != 5 {
		t.Fatalf("drew %+v", before)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#actions button.step").length`); n < 1 {
		t.Fatal("no enabled step listed (Dijkstra's ring has no deadlock)")
	}
	enabled := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("#ring g.proc.enabled")).map(g => g.dataset.proc)`)
	if len(enabled) == 0 {
		t.Error("no process highlighted as enabled")
	}
	screenshot(t, ctx, "dijkstra")
	const index = 0
	do(t, ctx, "click", chromedp.Click(chromedp.CSS(`#actions button.step[data-index="`+strconv.Itoa(index)+`"]`)), atCursor(1))
	if got, want := drawn(t, ctx), successor(t, sys, before, index); !sameJSON(t, got, want) {
		t.Errorf("after the click the ring draws %+v, the model's successor is %+v", got, want)
	}
	do(t, ctx, "back", chromedp.Click(chromedp.ID("back")), atCursor(0))
	if got := drawn(t, ctx); !sameJSON(t, got, before) {
		t.Errorf("back draws %+v, not the configuration before the step", got)
	}
}

// testKeyboard: the page works from the keyboard alone: Tab reaches
// an enabled step, Enter takes it (the model's successor is drawn), and
// the arrow keys go back and forward.
func testKeyboard(t *testing.T, ctx context.Context) {
	url, sys := serve(t, "dijkstra", map[string]int{"n": 5, "K": 5}, nil)
	do(t, ctx, "load", chromedp.Navigate(url), settle(), atCursor(0))
	before := drawn(t, ctx)
	index := -1
	for range 40 {
		do(t, ctx, "Tab", chromedp.KeyEvent(kb.Tab))
		if got := eval[string](t, ctx, `document.activeElement.matches("#actions button.step") ? document.activeElement.dataset.index : ""`); got != "" {
			index, _ = strconv.Atoi(got)
			break
		}
	}
	if index < 0 {
		t.Fatal("40 Tabs reach no enabled step")
	}
	do(t, ctx, "Enter", chromedp.KeyEvent(kb.Enter), atCursor(1))
	after := drawn(t, ctx)
	if want := successor(t, sys, before, index); !sameJSON(t, after, want) {
		t.Errorf("Enter on step %d draws %+v, the model's successor is %+v", index, after, want)
	}
	do(t, ctx, "ArrowLeft", chromedp.KeyEvent(kb.ArrowLeft), atCursor(0))
	if !sameJSON(t, drawn(t, ctx), before) {
		t.Error("ArrowLeft does not draw the configuration before the step")
	}
	do(t, ctx, "ArrowRight", chromedp.KeyEvent(kb.ArrowRight), atCursor(1))
	if !sameJSON(t, drawn(t, ctx), after) {
		t.Error("ArrowRight does not draw the configuration after the step")
	}
}

// testdataTraces are the traces in the repository's testdata folders.
func testdataTraces(t *testing.T) []string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".json") && strings.Contains(filepath.ToSlash(path), "/testdata/") {
			if _, err := reports.ReadTraceFile(path); err == nil {
				paths = append(paths, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 2 {
		t.Fatalf("found %d traces in testdata folders", len(paths))
	}
	return paths
}

// testHTMLExports: the HTML export of every trace in the
// repository's testdata opens from a file:// URL, loads nothing else, and
// replays to its last step, which the ring draws.
func testHTMLExports(t *testing.T, ctx context.Context) {
	dir := t.TempDir()
	for i, path := range testdataTraces(t) {
		tr, err := reports.ReadTraceFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var page bytes.Buffer
		if err := reports.WriteTraceHTML(&page, tr); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, strconv.Itoa(i)+".html")
		if err := os.WriteFile(file, page.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		last := len(tr.States) - 1
		do(t, ctx, path, chromedp.Navigate("file://"+file), settle(), atCursor(0), chromedp.KeyEvent(kb.End), atCursor(last))
		if got := drawn(t, ctx); !reflect.DeepEqual(len(got.Processes), len(tr.States[last].Processes)) || !sameJSON(t, got, tr.States[last]) {
			t.Errorf("%s: the last state is drawn as %+v", path, got)
		}
		if n := eval[int](t, ctx, `performance.getEntriesByType("resource").length`); n != 0 {
			t.Errorf("%s: the page loaded %d resources", path, n)
		}
	}
}

// testSweep: a sweep's results are plotted: a point per value with a
// worst case, at the value the results give, a mark where there is none
// (convergence violated), and a verdict per property and value.
func testSweep(t *testing.T, ctx context.Context) {
	sw, err := explorer.ReadSweep("testdata/dijkstra-sweep.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(explorer.NewSweep(sw))
	t.Cleanup(srv.Close)
	do(t, ctx, "load", chromedp.Navigate(srv.URL+"/"), settle(), chromedp.WaitVisible(chromedp.ID("verdicts")))
	for _, series := range []string{"steps", "rounds", "states"} {
		got := eval[[][2]string](t, ctx, `Array.from(document.querySelectorAll('svg.chart circle[data-series="`+series+`"]')).map(c => [c.dataset.value, c.dataset.y])`)
		var want [][2]string
		for _, p := range sw.Points {
			var y *int
			switch series {
			case "steps":
				y = p.WorstSteps
			case "rounds":
				y = p.WorstRounds
			case "states":
				n := int(p.States)
				y = &n
			}
			if y != nil {
				want = append(want, [2]string{strconv.Itoa(p.Value), strconv.Itoa(*y)})
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s plotted %v, the sweep's are %v", series, got, want)
		}
	}
	if got := eval[string](t, ctx, `document.querySelector('#verdicts td[data-value="6"][data-property="convergence"]').textContent`); got != "violated" {
		t.Errorf("convergence at n=6 shown as %q, want violated", got)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('svg.chart .missing[data-series="steps"]').length`); n != 1 {
		t.Errorf("%d missing worst cases marked, want 1 (n=6)", n)
	}
	screenshot(t, ctx, "sweep")
}

// testTypedConfiguration: a configuration typed as JSON is drawn once the
// server accepts it; one it refuses (a value outside its domain) is
// reported, and the ring stays as it was.
func testTypedConfiguration(t *testing.T, ctx context.Context) {
	url, _ := serve(t, "dijkstra", map[string]int{"n": 5, "K": 5}, nil)
	do(t, ctx, "load", chromedp.Navigate(url), settle(), atCursor(0))
	typed := func(xs ...int) reports.TraceState {
		ts := reports.TraceState{Channels: []reports.TraceChannel{}}
		for p, x := range xs {
			ts.Processes = append(ts.Processes, reports.TraceProcess{ID: p, Vars: reports.Fields{{Name: "x", Value: strconv.Itoa(x)}}})
		}
		return ts
	}
	enter := func(ts reports.TraceState) {
		b, err := json.Marshal(ts)
		if err != nil {
			t.Fatal(err)
		}
		do(t, ctx, "type", chromedp.Evaluate[chromedp.Void](`document.getElementById("typed").open = true`),
			chromedp.Evaluate[chromedp.Void](`document.getElementById("config").value = `+strconv.Quote(string(b))),
			chromedp.Click(chromedp.ID("from-config")), settle())
	}
	want := typed(1, 2, 3, 4, 0)
	enter(want)
	if got := drawn(t, ctx); !sameJSON(t, got, want) {
		t.Errorf("typed %+v, drawn %+v", want, got)
	}
	enter(typed(1, 2, 3, 4, 9))
	if msg := eval[string](t, ctx, `document.getElementById("config-error").textContent`); !strings.Contains(msg, "state: ") {
		t.Errorf("a value outside its domain is reported as %q", msg)
	}
	if got := drawn(t, ctx); !sameJSON(t, got, want) {
		t.Errorf("after a refused configuration, drawn %+v", got)
	}
}
