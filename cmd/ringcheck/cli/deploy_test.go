package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/ringcheck/ringcheck/shard"
)

// k8sObject is the part of a Kubernetes object the manifests' tests read.
type k8sObject struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		// Job
		CompletionMode string `yaml:"completionMode"`
		Completions    *int   `yaml:"completions"`
		Parallelism    *int   `yaml:"parallelism"`
		// Deployment and Service: a Deployment's selector holds
		// matchLabels, a Service's is the labels.
		Replicas *int           `yaml:"replicas"`
		Selector map[string]any `yaml:"selector"`
		Template struct {
			Metadata struct {
				Labels map[string]string `yaml:"labels"`
			} `yaml:"metadata"`
			Spec k8sPodSpec `yaml:"spec"`
		} `yaml:"template"`
		// Pod
		Containers []k8sContainer `yaml:"containers"`
		// Service
		Ports []struct {
			Port       int `yaml:"port"`
			TargetPort int `yaml:"targetPort"`
		} `yaml:"ports"`
	} `yaml:"spec"`
}

type k8sPodSpec struct {
	RestartPolicy string         `yaml:"restartPolicy"`
	Containers    []k8sContainer `yaml:"containers"`
	Volumes       []struct {
		Name string `yaml:"name"`
	} `yaml:"volumes"`
}

type k8sContainer struct {
	Name    string   `yaml:"name"`
	Image   string   `yaml:"image"`
	Command []string `yaml:"command"`
	Args    []string `yaml:"args"`
	Ports   []struct {
		ContainerPort int `yaml:"containerPort"`
	} `yaml:"ports"`
	VolumeMounts []struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
	} `yaml:"volumeMounts"`
}

// readManifests parses every document of every YAML file of
// deploy/kubernetes, by kind and name.
func readManifests(t *testing.T) map[string]*k8sObject {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "..", "..", "deploy", "kubernetes", "*.yaml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no manifest in deploy/kubernetes (%v)", err)
	}
	objects := map[string]*k8sObject{}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(data))
		for {
			var obj k8sObject
			if err := dec.Decode(&obj); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if obj.APIVersion == "" || obj.Kind == "" || obj.Metadata.Name == "" {
				t.Fatalf("%s: a document without apiVersion, kind or metadata.name", path)
			}
			objects[obj.Kind+"/"+obj.Metadata.Name] = &obj
		}
	}
	return objects
}

// ringcheckArgs checks that a container runs ringcheck, from an image of
// it, with arguments the command tree accepts, and returns the command
// they select.
func ringcheckArgs(t *testing.T, where string, c k8sContainer) (string, []string) {
	t.Helper()
	if !slices.Equal(c.Command, []string{"ringcheck"}) {
		t.Errorf("%s: command is %q, not [ringcheck]", where, c.Command)
	}
	if !strings.HasPrefix(c.Image, "ringcheck:") && !strings.Contains(c.Image, "/ringcheck:") {
		t.Errorf("%s: image %q is not ringcheck's", where, c.Image)
	}
	root := newRootCmd(io.Discard, io.Discard)
	cmd, rest, err := root.Find(c.Args)
	if err != nil || cmd == root {
		return "", nil
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Errorf("%s: ringcheck %s: %v", where, strings.Join(c.Args, " "), err)
	}
	if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil {
		t.Errorf("%s: ringcheck %s: %v", where, strings.Join(c.Args, " "), err)
	}
	return cmd.Name(), c.Args
}

// TestIndexedJob checks the Indexed Job that shards a sweep: indexed
// completions, as many as the shards its command asks for, which read
// their index from JOB_COMPLETION_INDEX, write a partial result as JSON to
// a mounted volume, and parse as ringcheck's flags.
func TestIndexedJob(t *testing.T) {
	objects := readManifests(t)
	job := objects["Job/ringcheck-sweep"]
	if job == nil {
		t.Fatal("deploy/kubernetes has no Job named ringcheck-sweep")
	}
	if job.APIVersion != "batch/v1" || job.Spec.CompletionMode != "Indexed" {
		t.Errorf("the Job is %s, completionMode %q: want batch/v1, Indexed", job.APIVersion, job.Spec.CompletionMode)
	}
	pod := job.Spec.Template.Spec
	if pod.RestartPolicy != "Never" && pod.RestartPolicy != "OnFailure" {
		t.Errorf("restartPolicy %q: a Job's pods need Never or OnFailure", pod.RestartPolicy)
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("the Job's pod has %d containers, want 1", len(pod.Containers))
	}
	c := pod.Containers[0]
	name, args := ringcheckArgs(t, "Job/ringcheck-sweep", c)
	if name != "check" {
		t.Fatalf("the Job runs ringcheck %q, not check", strings.Join(args, " "))
	}
	root := newRootCmd(io.Discard, io.Discard)
	cmd, rest, _ := root.Find(args)
	if err := cmd.ParseFlags(rest); err != nil {
		t.Fatal(err)
	}
	flag := func(name string) string { return cmd.Flags().Lookup(name).Value.String() }
	if flag("json") != "true" || flag("sweep") == "" {
		t.Errorf("the Job's check has --json %s and --sweep %q: a shard of a sweep writes JSON", flag("json"), flag("sweep"))
	}
	spec := flag("shard")
	if !strings.HasPrefix(spec, "auto/") {
		t.Fatalf("--shard %q: the Job's pods read their index from %s with auto/K", spec, shard.IndexVariable)
	}
	completions := job.Spec.Completions
	if completions == nil {
		t.Fatal("the Job gives no completions")
	}
	for i := range *completions {
		env := func(name string) string {
			if name == shard.IndexVariable {
				return fmt.Sprint(i)
			}
			return ""
		}
		sh, err := shard.Parse(spec, env)
		if err != nil {
			t.Fatalf("pod %d: --shard %s: %v", i, spec, err)
		}
		if sh.Count != *completions {
			t.Fatalf("--shard %s splits the sweep into %d shards, but the Job has %d completions", spec, sh.Count, *completions)
		}
	}
	if p := job.Spec.Parallelism; p == nil || *p < 1 || *p > *completions {
		t.Errorf("parallelism %v is not from 1 to the %d completions", p, *completions)
	}
	if flag("workers") == "" || !cmd.Flags().Changed("workers") {
		t.Errorf("the Job's check does not set --workers: the shards of one run need the same options on every node")
	}
	out := flag("output")
	if !strings.Contains(out, "$("+shard.IndexVariable+")") {
		t.Errorf("-o %q: each pod needs a file of its own, named by $(%s)", out, shard.IndexVariable)
	}
	mounted := false
	for _, m := range c.VolumeMounts {
		if strings.HasPrefix(out, strings.TrimSuffix(m.MountPath, "/")+"/") {
			mounted = slices.ContainsFunc(pod.Volumes, func(v struct {
				Name string `yaml:"name"`
			}) bool {
				return v.Name == m.Name
			})
		}
	}
	if !mounted {
		t.Errorf("-o %q is not on a volume the pod mounts", out)
	}
	merge := objects["Pod/ringcheck-merge"]
	if merge == nil {
		t.Fatal("deploy/kubernetes has no Pod named ringcheck-merge")
	}
	name, margs := ringcheckArgs(t, "Pod/ringcheck-merge", merge.Spec.Containers[0])
	if name != "merge" {
		t.Fatalf("the merge pod runs ringcheck %q, not merge", strings.Join(margs, " "))
	}
	if files := len(margs) - 1; files != *completions {
		t.Errorf("the merge pod merges %d files, the Job writes %d", files, *completions)
	}
}

// TestWorkersManifests checks the NATS server and the workers' Deployment:
// the image nats:2.x behind a Service, and workers that join it with the
// worker command.
func TestWorkersManifests(t *testing.T) {
	objects := readManifests(t)
	nats, svc := objects["Deployment/nats"], objects["Service/nats"]
	if nats == nil || svc == nil {
		t.Fatal("deploy/kubernetes needs a Deployment and a Service named nats")
	}
	c := nats.Spec.Template.Spec.Containers
	if len(c) != 1 || !regexp.MustCompile(`^nats:2(\.|$)`).MatchString(c[0].Image) {
		t.Fatalf("the nats Deployment's containers are %+v: want one of image nats:2.x", c)
	}
	if !slices.ContainsFunc(c[0].Ports, func(p struct {
		ContainerPort int `yaml:"containerPort"`
	}) bool {
		return p.ContainerPort == 4222
	}) {
		t.Errorf("the nats container does not expose port 4222")
	}
	labels := nats.Spec.Template.Metadata.Labels
	match, _ := nats.Spec.Selector["matchLabels"].(map[string]any)
	for what, sel := range map[string]map[string]any{"Deployment": match, "Service": svc.Spec.Selector} {
		if len(sel) == 0 {
			t.Errorf("the nats %s selects no pod", what)
		}
		for k, v := range sel {
			if labels[k] != fmt.Sprint(v) {
				t.Errorf("the nats %s selects %s=%v, which the nats pods do not carry", what, k, v)
			}
		}
	}
	if len(svc.Spec.Ports) != 1 || svc.Spec.Ports[0].Port != 4222 {
		t.Errorf("the nats Service's ports are %+v: want 4222", svc.Spec.Ports)
	}
	workers := objects["Deployment/ringcheck-worker"]
	if workers == nil {
		t.Fatal("deploy/kubernetes has no Deployment named ringcheck-worker")
	}
	wc := workers.Spec.Template.Spec.Containers
	if len(wc) != 1 || len(wc[0].Args) == 0 || wc[0].Args[0] != "worker" {
		t.Fatalf("the workers' containers are %+v: want one running ringcheck worker", wc)
	}
	i := slices.Index(wc[0].Args, "--cluster")
	if i < 0 || i+1 >= len(wc[0].Args) {
		t.Fatalf("the workers run %q, without --cluster URL", wc[0].Args)
	}
	u, err := url.Parse(wc[0].Args[i+1])
	if err != nil || u.Scheme != "nats" || u.Hostname() != svc.Metadata.Name || u.Port() != "4222" {
		t.Errorf("--cluster %q is not nats://%s:4222, the Service's", wc[0].Args[i+1], svc.Metadata.Name)
	}
	name, _ := ringcheckArgs(t, "Deployment/ringcheck-worker", wc[0])
	if name == "" {
		t.Skip("ringcheck has no worker command yet: its arguments in workers.yaml are not parsed")
	}
	if name != "worker" {
		t.Errorf("the workers run ringcheck %s, not worker", name)
	}
}
