#!/bin/bash -eu
# build.sh - builds every fuzz target for ClusterFuzzLite / OSS-Fuzz, by
# their conventions: the compiler and flags come in $CC and $CFLAGS (with
# the sanitizer and coverage instrumentation), the engine in
# $LIB_FUZZING_ENGINE, and everything goes to $OUT:
#
#   $OUT/<target>                    the fuzz targets (fuzz/targets.cmake)
#   $OUT/<target>_seed_corpus.zip    corpus/<target>
#   $OUT/<target>.dict, .options     fuzz/<target>.dict, .options
#   $OUT/isacheck-data/shared/mesa/src/...   Mesa's isaspec files
#   $OUT/isacheck-data/repo/isa/...  our ISA descriptions
#   $OUT/lib/                        the shared libraries the targets need
#                                    (libxml2, Z3; the runner image lacks
#                                    them), found through an $ORIGIN rpath
#
# The targets find their spec files in isacheck-data next to themselves
# (fuzz/fuzz.h, fuzz_find_spec).  Run locally with, e.g.:
#   SRC=/tmp/src OUT=/tmp/out CC=clang CFLAGS="-fsanitize=address,fuzzer-no-link" \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer .clusterfuzzlite/build.sh
# (with MESA=<a Mesa checkout or ../shared/mesa>).
src_dir=${SRC_DIR:-$(cd "$(dirname "$0")/.." 2>/dev/null && pwd)}
[ -f "$src_dir/fuzz/targets.cmake" ] || src_dir=$SRC/isacheck
mesa=${MESA:-$SRC/mesa}
build=${WORK:-/tmp}/isacheck-build

# No build type: $CFLAGS alone set the optimisation and debug info, as
# OSS-Fuzz means them to (-O1 -gline-tables-only; a Release build would
# append -O3 -DNDEBUG).  The run path is an old-style DT_RPATH
# (--disable-new-dtags): unlike a DT_RUNPATH it also serves the
# libraries' own dependencies (libxml2's ICU and liblzma), which the
# runner image lacks as well.  libxml2 and libz3 are linked, not opened
# on first use (ISACHECK_XML_LAZY, ISACHECK_Z3_LAZY): the targets parse
# anyway, the target "semantic" runs Z3, and ldd must see them to copy
# them below.
# shellcheck disable=SC2016 # $ORIGIN is the dynamic linker's, not the shell's
cmake -S "$src_dir" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE= \
	-DCMAKE_C_COMPILER="$CC" -DCMAKE_C_FLAGS="$CFLAGS" \
	-DCMAKE_EXE_LINKER_FLAGS="$CFLAGS -Wl,--disable-new-dtags" \
	-DCMAKE_BUILD_RPATH='$ORIGIN/lib' \
	-DISACHECK_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" -DISACHECK_XML_LAZY=OFF -DISACHECK_Z3_LAZY=OFF \
	-DISACHECK_SHARED_DIR="$mesa/.."
# every row of fuzz/targets.cmake that this checkout enables
built=()
while read -r t; do
	if ninja -C "$build" -t query "fuzz_$t" >/dev/null 2>&1; then
		built+=("fuzz_$t")
	fi
done < <(grep -h -o '^[[:space:]]*isacheck_fuzz_target([a-z0-9_]*' "$src_dir/fuzz/targets.cmake" |
	cut -d'(' -f2)
ninja -C "$build" "${built[@]}"

mkdir -p "$OUT/lib"
for b in "${built[@]}"; do
	t=${b#fuzz_}
	cp "$build/fuzz/$b" "$OUT/$t"
	[ -f "$src_dir/fuzz/$t.dict" ] && cp "$src_dir/fuzz/$t.dict" "$OUT/"
	[ -f "$src_dir/fuzz/$t.options" ] && cp "$src_dir/fuzz/$t.options" "$OUT/"
	if [ -d "$src_dir/corpus/$t" ]; then
		(cd "$src_dir/corpus/$t" && zip -q -r "$OUT/${t}_seed_corpus.zip" .)
	fi
	# the libraries of ours that are not in the runner image
	ldd "$OUT/$t" | awk '/=> \// {print $3}' |
		grep -E 'libxml2|libz3|libicu|liblzma|libstdc\+\+|libgomp' | grep -v "^$OUT/" |
		xargs -r -I{} cp -L -u {} "$OUT/lib/"
done

data=$OUT/isacheck-data
mkdir -p "$data/repo/isa"
cp "$src_dir"/isa/*.xml "$data/repo/isa/" 2>/dev/null || true
if [ -d "$mesa/src" ]; then
	for d in freedreno/isa freedreno/afuc etnaviv/isa; do
		mkdir -p "$data/shared/mesa/src/$d"
		cp "$mesa/src/$d"/*.xml "$data/shared/mesa/src/$d/"
	done
fi
