// Package catalog assembles the registry of every spec ringcheck ships:
// the .ring files embedded by package specs/ring, and the Go specs that
// have no file yet.
package catalog

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/lang/compile"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/lejeune"
	"github.com/ringcheck/ringcheck/specs/ring"
)

// entry is one spec of the catalogue: the name of its embedded .ring file,
// or the Go function that declares it.
type entry struct {
	file   string
	goSpec func() *specs.Spec
}

// entries are the catalogue's specs, in the order `list` shows them.
func entries() []entry {
	return []entry{
		{file: "dijkstra.ring"},
		{file: "kl-naive.ring"},
		{file: "kl-pusher.ring"},
		{file: "counterflush.ring"},
		{file: "kl-ddhl.ring"},
		{file: "kl-dhv.ring"},
		{file: "raynal.ring"},
		{file: "raynal-and.ring"},
		{file: "thiare.ring"},
		{goSpec: lejeune.Spec},
	}
}

// Registry returns a new registry of all the specs, in the order `list`
// shows them.
func Registry() (*specs.Registry, error) { return RegistryWithCode() }

// RegistryWithCode is Registry whose specs read from files run each
// instance that one of codes was generated from (package lang/gogen) on
// that code.
func RegistryWithCode(codes ...*compile.Code) (*specs.Registry, error) {
	var all []*specs.Spec
	for _, e := range entries() {
		if e.goSpec != nil {
			all = append(all, e.goSpec())
			continue
		}
		s, err := fromFile(e.file, codes)
		if err != nil {
			return nil, err
		}
		all = append(all, s)
	}
	return specs.NewRegistry(all...)
}

// FromFile returns the catalogue entry of the embedded file name
// (dijkstra.ring): the file's, with no File, since a built-in spec is
// named, not read (its FileHash still identifies the version).
func FromFile(name string) (*specs.Spec, error) { return fromFile(name, nil) }

// fromFile is FromFile, the spec's instances run on codes where one was
// generated from them.
func fromFile(name string, codes []*compile.Code) (*specs.Spec, error) {
	s, f, err := lang.LoadFS(ring.Files(), name, path.Join(ring.Dir, name))
	if err != nil {
		return nil, fmt.Errorf("the catalogue's %s: %w", name, err)
	}
	f.WithCode(codes...)
	if want := strings.TrimSuffix(name, lang.Ext); s.Name != want {
		return nil, fmt.Errorf("the catalogue's %s declares spec %s, not %s", name, s.Name, want)
	}
	s.File = ""
	return s, nil
}

// Source returns the text of the .ring file the built-in spec called
// name is read from (NAME.ring), and false for a spec written in Go or an
// unknown name.
func Source(name string) ([]byte, bool) {
	for _, e := range entries() {
		if e.file == name+lang.Ext {
			src, err := fs.ReadFile(ring.Files(), e.file)
			return src, err == nil
		}
	}
	return nil, false
}
