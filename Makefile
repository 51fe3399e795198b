# keel — a terminal coding assistant. `make help` lists the targets.
GO       ?= go
BIN      := bin/keel
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -s -w -X main.version=$(VERSION)

.DEFAULT_GOAL := help

.PHONY: help build run test soak lint bench demo clean jaeger test-otel

help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  %-8s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# bin/keel is built without cgo: a static binary needs no dynamic loader
# or libc, starts faster and holds 6-8 MB less memory (docs/BENCHMARKS.md).
build: ## build bin/keel with the version stamped
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/keel

run: build ## build and start the TUI
	./$(BIN) $(ARGS)

# -timeout 30m: go test's default 10 minutes per package guards against a
# hang, but a cold build cache on a busy 2-core machine took cmd/keel's
# package past it with no test stuck (the e2e tests build keel first).
# The e2e tests build keel without -race (they measure its memory and
# size): compiling it beside the race build (into the build cache), not
# after it, moves ~116 s of CPU of a cold run out of the end, where
# cmd/keel's e2e tests would wait for it. -p 4: go test runs a package's
# tests as one of its -p jobs (default: one per CPU), so two packages
# whose tests mostly wait on processes (cmd/keel, agent/datalog,
# agent/demo) held both jobs of a 2-core machine while compiles waited
# and the CPUs idled. cmd/keel's TestMain runs 8 of its tests at a time.
test: ## run every test with the race detector
	$(GO) build -o /dev/null ./cmd/keel & \
	$(GO) test -race -count=1 -p 4 -timeout 30m ./...; rc=$$?; wait; exit $$rc

# The kill tests with many trials (make test runs a few): 100 SIGKILLs at
# random moments of an editing task, each followed by one keel undo that
# must restore every file exactly; 50 SIGKILLs during keel undo, each
# followed by an undo that must finish the job. Each test logs its tally.
# Then the permission differential with 20000 generated commands (make
# test runs the first 5000).
soak: ## the kill tests, 100 and 50 trials, and the 20000-command permission differential (tens of minutes; the log: bin/soak.txt)
	@mkdir -p bin
	@KEEL_SOAK=1 $(GO) test -count=1 -timeout 120m -parallel 4 -v -run 'TestKillDuring(Editing|Undo)' ./cmd/keel > bin/soak.txt 2>&1; rc=$$?; \
		KEEL_SOAK=1 $(GO) test -count=1 -timeout 120m -v -run 'TestPermissionDifferential$$' ./tools >> bin/soak.txt 2>&1 || rc=1; \
		grep -E -- '--- FAIL|^(ok|FAIL)|trials,|commands generated' bin/soak.txt; exit $$rc

lint: ## go vet, gofmt (must be empty), deadcode (must be empty), staticcheck when installed
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	@command -v deadcode >/dev/null 2>&1 || $(GO) install golang.org/x/tools/cmd/deadcode@v0.52.0
	@out=$$(PATH="$$PATH:$$($(GO) env GOPATH)/bin" deadcode -test ./...); if [ -n "$$out" ]; then echo "dead code:"; echo "$$out"; exit 1; fi
	@if command -v staticcheck >/dev/null 2>&1; then staticcheck ./...; else echo "staticcheck not installed: go install honnef.co/go/tools/cmd/staticcheck@latest"; fi

# keelbench and the Go benchmarks are built with bin/keel's flags, so a cold
# build cache compiles the dependencies once, not twice (~45 s). BASELINE is
# the build measured beside this one (auto: the previous release; none: no
# column); PEER the peer's binary whose idle TUI is measured in the same run
# (bin/crush when it is there; docs/BENCHMARKS.md says how to build it).
BASELINE ?= auto
PEER     ?= $(wildcard bin/crush)
bench: ## run the Go benchmarks and keelbench, beside the previous release (budgets: docs/BENCHMARKS.md)
	$(MAKE) --no-print-directory build
	CGO_ENABLED=0 $(GO) build -trimpath -o bin/keelbench ./cmd/keelbench
	@echo "go test: the benchmarks named in cmd/keelbench/budgets.json"
	@CGO_ENABLED=0 $(GO) test -trimpath -run '^$$' -benchmem -count 1 $$(bin/keelbench -gotest-args) > bin/gobench.txt 2>&1 || { cat bin/gobench.txt; exit 1; }
	bin/keelbench -suite -keel $(BIN) -gobench bin/gobench.txt $(if $(filter-out none,$(BASELINE)),-baseline $(BASELINE)) $(if $(PEER),-peer $(PEER))

# Jaeger for the OTLP end-to-end tests (cmd/keel/otlp_e2e_test.go), built
# from the Go module proxy into the user's cache once: a few minutes cold,
# nothing after. Without it those tests skip and say so; .ci/run builds it
# before make test, so the build stays out of make test's time.
JAEGER_VERSION := v1.76.0
JAEGER_DIR     := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/keel-test/jaeger-$(JAEGER_VERSION)
jaeger: ## build Jaeger (OTLP e2e tests' backend) into ~/.cache/keel-test once
	@if [ -x "$(JAEGER_DIR)/jaeger" ]; then echo "jaeger: $(JAEGER_DIR)/jaeger is built"; else \
		mkdir -p "$(JAEGER_DIR)/mod" && cd "$(JAEGER_DIR)/mod" && \
		{ [ -f go.mod ] || GOFLAGS=-mod=mod $(GO) mod init keel-test/jaeger; } && \
		GOFLAGS=-mod=mod $(GO) get -tool github.com/jaegertracing/jaeger/cmd/jaeger@$(JAEGER_VERSION) && \
		CGO_ENABLED=0 GOFLAGS=-mod=mod $(GO) build -trimpath -o "$(JAEGER_DIR)/jaeger.tmp" github.com/jaegertracing/jaeger/cmd/jaeger && \
		mv "$(JAEGER_DIR)/jaeger.tmp" "$(JAEGER_DIR)/jaeger" && echo "jaeger: built $(JAEGER_DIR)/jaeger"; fi

test-otel: jaeger ## the OTLP end-to-end tests against Jaeger
	$(GO) test -race -count=1 -run 'TestOTLP' ./cmd/keel

demo: build ## start the scripted demo (no API key needed)
	./$(BIN) --demo

clean: ## remove build output
	rm -rf bin
