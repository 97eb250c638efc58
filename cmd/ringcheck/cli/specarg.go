package cli

import (
	"context"
	"path/filepath"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/lang/compile"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/catalog"
)

// registryKey keys the registry of specs in a command's context.
type registryKey struct{}

// codeKey keys, in a command's context, the Go generated from instances
// that the command's specs run on.
type codeKey struct{}

// registry is the built-in specs, their instances run on codes where one
// was generated from them, and extra.
func registry(extra []*specs.Spec, codes []*compile.Code) (*specs.Registry, error) {
	reg, err := catalog.RegistryWithCode(codes...)
	if err != nil || len(extra) == 0 {
		return reg, err
	}
	return specs.NewRegistry(append(reg.All(), extra...)...)
}

// withRegistry returns ctx carrying the registry the commands look specs
// up in.
func withRegistry(ctx context.Context, reg *specs.Registry) context.Context {
	return context.WithValue(ctx, registryKey{}, reg)
}

// withCode returns ctx carrying codes, which the instances of .ring files
// run on where one was generated from them.
func withCode(ctx context.Context, codes []*compile.Code) context.Context {
	if len(codes) == 0 {
		return ctx
	}
	return context.WithValue(ctx, codeKey{}, codes)
}

// codeOf returns the generated code ctx carries.
func codeOf(ctx context.Context) []*compile.Code {
	if ctx == nil {
		return nil
	}
	codes, _ := ctx.Value(codeKey{}).([]*compile.Code)
	return codes
}

// registryOf returns the registry ctx carries, or the built-in specs'.
func registryOf(ctx context.Context) (*specs.Registry, error) {
	if ctx != nil {
		if reg, ok := ctx.Value(registryKey{}).(*specs.Registry); ok {
			return reg, nil
		}
	}
	return catalog.Registry()
}

// findSpec resolves a SPEC argument: the path of a .ring file (relative
// to dir, when dir is given and the path is relative), or the name of a
// spec of the registry ctx carries. A file that does not parse or check is
// a usage error whose lines are the file's problems, as file:line:col:
// message.
func findSpec(ctx context.Context, arg, dir string) (*specs.Spec, error) {
	reg, err := registryOf(ctx)
	if err != nil {
		return nil, err
	}
	return findSpecIn(reg, arg, dir, codeOf(ctx)...)
}

// findSpecIn is findSpec over the registry reg, a file's instances run
// on codes where one was generated from them.
func findSpecIn(reg *specs.Registry, arg, dir string, codes ...*compile.Code) (*specs.Spec, error) {
	if lang.IsPath(arg) {
		path := arg
		if dir != "" && !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		spec, file, err := lang.Load(path)
		if _, inFile := syntax.AsError(err); inFile {
			return nil, sourceError(err)
		}
		if err != nil {
			return nil, usageError("%v", err)
		}
		file.WithCode(codes...)
		return spec, nil
	}
	spec, err := reg.Lookup(arg)
	if err != nil {
		return nil, usageError("%v", err)
	}
	return spec, nil
}

// sourceError is a usage error about a source file, printed as it is: one
// file:line:col: message line per problem, the form editors jump to.
func sourceError(err error) error {
	return &exitError{code: exitUsage, err: err, plain: true}
}
