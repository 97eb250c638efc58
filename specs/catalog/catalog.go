// Package catalog assembles the registry of every spec ringcheck ships.
package catalog

import (
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/counterflush"
	"github.com/ringcheck/ringcheck/specs/dijkstra"
	"github.com/ringcheck/ringcheck/specs/klddhl"
	"github.com/ringcheck/ringcheck/specs/kldhv"
	"github.com/ringcheck/ringcheck/specs/klnaive"
	"github.com/ringcheck/ringcheck/specs/klpusher"
	"github.com/ringcheck/ringcheck/specs/lejeune"
	"github.com/ringcheck/ringcheck/specs/raynal"
	"github.com/ringcheck/ringcheck/specs/raynaland"
	"github.com/ringcheck/ringcheck/specs/thiare"
)

// Registry returns a new registry of all the specs, in the order `list`
// shows them.
func Registry() (*specs.Registry, error) {
	return specs.NewRegistry(
		dijkstra.Spec(),
		klnaive.Spec(),
		klpusher.Spec(),
		counterflush.Spec(),
		klddhl.Spec(),
		kldhv.Spec(),
		raynal.Spec(),
		raynaland.Spec(),
		thiare.Spec(),
		lejeune.Spec(),
	)
}
