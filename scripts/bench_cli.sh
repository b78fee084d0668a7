#!/usr/bin/env bash
# bench_cli.sh — what a user waits for and what the run costs in memory, vq beside the reference
# CLI (libvmaf's vmaf) at equal --threads, on the same Y4M clips:
#   - per-frame cost (t(N) - t(small)) / (N - small), start-up excluded;
#   - whole-process wall time t(N), start-up included;
#   - peak resident memory of the whole process (GNU time's maximum RSS) in the N-frame run.
# Times are the median of --runs runs (one run when the first takes longer than --long seconds:
# there start-up noise no longer matters), vq's and the reference's runs taken in turn, round
# after round, so that the machine's drift falls on both alike; peak memory is the largest seen.
#
#   scripts/bench_cli.sh --suite cpu        # the README's table: psnr, cambi, ciede, vmaf;
#                                           # 1080p (60 frames) and 4K (24); natural and banded
#                                           # content; --threads 1 and 2; the reference beside vq
#   scripts/bench_cli.sh [--feature F ...] [--suite cpu] [--content "natural banded"]
#                        [--sizes "1920x1080 3840x2160"] [--threads "1 2"] [--frames N] [--small 4]
#                        [--runs 3] [--long 20] [--backend cpu] [--reference PATH|none] [--no-ref]
#                        [--floor] [--metrics "psnr cambi ciede vmaf"]
#   scripts/bench_cli.sh --suite cpu --metrics "float_ssim float_ms_ssim psnr_hvs speed_chroma
#                        aom_ctc vmaf_v1 vmaf_v1_4k"   # the newer rows (--metrics implies --suite cpu)
#
# --feature F (repeatable) times one run of every F together; --suite cpu times each of its
# features (--metrics, default all four) on its own (the vmaf row is -m version=vmaf_v0.6.1 when vq has --model, else vq's
# vif, adm and motion features). --metrics also takes float_ssim, float_ms_ssim, psnr_hvs and
# speed_chroma (--no_prediction --feature NAME), aom_ctc (--aom_ctc v7.0), vmaf_v1
# (-m version=vmaf_v1.0.16_3d0h) and vmaf_v1_4k (-m version=vmaf_v1.0.16_1d5h_2160), on both tools.
# Each row is first tried on one small frame pair: a row vq cannot run (an older build without the
# flag or model) is skipped with a note, one the reference cannot run is timed for vq alone. --frames N replaces the per-size defaults (60 at 1080p, 24 at
# 4K). --threads 0 means vq's default (every core; the reference is then not run: its 0 means
# no pool). --reference defaults to ../shared/tools/vmaf-ref/vmaf when present; "none" skips it.
# --no-ref runs vq without -r (no-reference features). --floor adds a row for vq-read-floor.
#
# Content, cached in $VQ_BENCH_DIR (default /tmp/vq-bench), made once:
#   natural: a noisy texture (Mandelbrot zoom over a slow gradient, temporal noise) encoded with
#            x264 at CRF 12 (reference) and again at CRF 32 (distorted), decoded to 8-bit 4:2:0;
#            needs ffmpeg with libx264, skipped with a note where it is missing;
#   banded:  vq-synth's banded gradient, `small` distinct frames repeated.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=3 long=20 small=4 frames="" threads="1 2" sizes="1920x1080 3840x2160" backend=cpu
contents="" floor=0 noref=0 suite="" reference=auto metrics="psnr cambi ciede vmaf"
combined=()
while [ $# -gt 0 ]; do
  case "$1" in
    --suite) suite=$2; shift 2 ;;
    --metrics) metrics=$2; suite=${suite:-cpu}; shift 2 ;;
    --feature) combined+=("$2"); shift 2 ;;
    --content) contents=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --long) long=$2; shift 2 ;;
    --frames) frames=$2; shift 2 ;;
    --small) small=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    --reference) reference=$2; shift 2 ;;
    --floor) floor=1; shift ;;
    --no-ref) noref=1; shift ;;
    *) echo "bench_cli.sh: unknown argument $1 (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
done
case "$suite" in
  "") ;;
  cpu) contents=${contents:-natural banded} ;;
  *) echo "bench_cli.sh: unknown suite '$suite' (cpu)" >&2; exit 2 ;;
esac
contents=${contents:-banded}

vq=${VQ:-build/vq} synth=${VQ_SYNTH:-build/vq-synth} read_floor=${VQ_READ_FLOOR:-build/bench/vq-read-floor}
dir=${VQ_BENCH_DIR:-/tmp/vq-bench}
mkdir -p "$dir"
[ -x "$vq" ] || { echo "bench_cli.sh: $vq not found: build first (or set VQ=path/to/vq)" >&2; exit 1; }
gnu_time=/usr/bin/time
"$gnu_time" -f %M true >/dev/null 2>&1 || { echo "bench_cli.sh: needs GNU time at $gnu_time (apt-get install time)" >&2; exit 1; }
if [ "$reference" = auto ]; then
  reference=none
  [ -x ../shared/tools/vmaf-ref/vmaf ] && reference=../shared/tools/vmaf-ref/vmaf
fi
[ "$reference" = none ] || [ -x "$reference" ] || { echo "bench_cli.sh: reference CLI $reference is not executable" >&2; exit 1; }

# --- what to time: one group of rows per run, each with vq's arguments and the reference's ---
# `grep >/dev/null`, not `grep -q`, in these pipes: -q stops reading at the first match, the
# writer then dies of SIGPIPE, and pipefail turns a found match into a failure now and then.
vq_has_feature() { "$vq" --list-features | grep "^$1 " >/dev/null; }
groups=()
declare -A vq_args ref_args
add_group() { groups+=("$1"); vq_args[$1]=$2; ref_args[$1]=$3; }
if [ ${#combined[@]} -gt 0 ] || [ -z "$suite" ]; then
  [ ${#combined[@]} -gt 0 ] || combined=(psnr)
  label=$(IFS=+; echo "${combined[*]}") v="" r="--no_prediction"
  for f in "${combined[@]}"; do v+=" --feature $f"; r+=" --feature $f"; done
  add_group "$label" "$v" "$r"
fi
# The rows --metrics names beyond those four; vq and the reference take the same arguments.
declare -A extra_rows=(
  [float_ssim]="--no_prediction --feature float_ssim"
  [float_ms_ssim]="--no_prediction --feature float_ms_ssim"
  [psnr_hvs]="--no_prediction --feature psnr_hvs"
  [speed_chroma]="--no_prediction --feature speed_chroma"
  [aom_ctc]="--aom_ctc v7.0"
  [vmaf_v1]="-m version=vmaf_v1.0.16_3d0h"
  [vmaf_v1_4k]="-m version=vmaf_v1.0.16_1d5h_2160"
)
extra_order="float_ssim float_ms_ssim psnr_hvs speed_chroma aom_ctc vmaf_v1 vmaf_v1_4k"
for m in $metrics; do
  [[ " psnr cambi ciede vmaf $extra_order " == *" $m "* ]] ||
    { echo "bench_cli.sh: unknown metric '$m' (psnr cambi ciede vmaf $extra_order)" >&2; exit 2; }
done
if [ "$suite" = cpu ]; then
  for f in psnr cambi ciede; do
    [[ " $metrics " == *" $f "* ]] && add_group "$f" "--feature $f" "--no_prediction --feature $f"
  done
  if [[ " $metrics " != *" vmaf "* ]]; then
    :
  elif "$vq" --help 2>&1 | grep -- "--model" >/dev/null; then
    add_group vmaf "-m version=vmaf_v0.6.1" "-m version=vmaf_v0.6.1"
  elif vq_has_feature vif && vq_has_feature adm && vq_has_feature motion; then
    add_group "vif+adm+motion" "--feature vif --feature adm --feature motion" \
            "--no_prediction --feature vif --feature adm --feature motion"
  fi
  for m in $extra_order; do
    [[ " $metrics " == *" $m "* ]] && add_group "$m" "${extra_rows[$m]}" "${extra_rows[$m]}"
  done
fi

# A row whose flag, feature or model one tool lacks (an older vq: no --aom_ctc, no v1 models) is
# a note, not a failed benchmark: each row is tried once on a small banded clip first.
probe_ref=$dir/probe_ref.y4m probe_dist=$dir/probe_dist.y4m
ref_skip=()
# accepts TOOL ARGS...: whether TOOL scores one probe frame pair with ARGS; else a note.
accepts() {
  local tool=$1; shift
  local out; out=$(mktemp -d)
  if "$tool" -r "$probe_ref" -d "$probe_dist" "$@" -q -o "$out/probe.json" --json --frame_cnt 1 \
    >/dev/null 2>"$out/err"; then rm -rf "$out"; return 0; fi
  echo "bench_cli.sh: $tool cannot run '$*' ($(grep -v WARNING "$out/err" | head -n 1))" >&2
  rm -rf "$out"
  return 1
}
if [ ${#groups[@]} -gt 0 ]; then
  if [ ! -f "$probe_ref" ] || [ ! -f "$probe_dist" ]; then
    [ -x "$synth" ] || { echo "bench_cli.sh: $synth not found" >&2; exit 1; }
    "$synth" --scene banded_gradient --size 640x360 --frames 2 --y4m --ref "$probe_ref" --dist "$probe_dist"
  fi
  kept=()
  for group in "${groups[@]}"; do
    # The group's arguments are words: split on purpose.
    # shellcheck disable=SC2086
    if ! accepts "$vq" ${vq_args[$group]} --backend "$backend"; then
      echo "bench_cli.sh: row $group skipped" >&2
      continue
    fi
    kept+=("$group")
    # shellcheck disable=SC2086
    if [ "$reference" != none ] && ! accepts "$reference" ${ref_args[$group]}; then
      echo "bench_cli.sh: row $group without the reference" >&2
      ref_skip+=("$group")
    fi
  done
  groups=("${kept[@]}")
fi

frames_for() {
  if [ -n "$frames" ]; then echo "$frames"; return; fi
  case "$1" in 3840x2160) echo 24 ;; *) echo 60 ;; esac
}

# --- clips ---
have_x264() { command -v ffmpeg >/dev/null && ffmpeg -hide_banner -encoders 2>/dev/null | grep libx264 >/dev/null; }

# cached STEM CONTENT SIZE N: whether the clips made earlier are there with at least N frames.
cached() {
  [ -f "$1.frames" ] && [ "$(cat "$1.frames")" -ge "$4" ] &&
    [ -f "$dir/$2_ref_$3.y4m" ] && [ -f "$dir/$2_dist_$3.y4m" ]
}

# make_natural SIZE N: natural_{ref,dist}_SIZE.y4m with at least N frames (count in a sidecar).
make_natural() {
  local size=$1 n=$2 stem=$dir/natural_$1
  cached "$stem" natural "$size" "$n" && return 0
  if [ -f "$dir/natural_ref_$size.seed.y4m" ] && [ -f "$dir/natural_dist_$size.seed.y4m" ]; then
    repeat_clips natural "$size" "$n" "$dir/natural_ref_$size.seed.y4m" "$dir/natural_dist_$size.seed.y4m"
    return 0
  fi
  have_x264 || return 1
  echo "bench_cli.sh: making $n frames of natural content at $size (once)" >&2
  local ff=(ffmpeg -hide_banner -loglevel error -y)
  "${ff[@]}" -f lavfi -i "mandelbrot=size=$size:rate=24:start_scale=0.3:end_scale=0.1,format=yuv420p" \
    -f lavfi -i "gradients=size=$size:rate=24:speed=0.02:c0=0x203060:c1=0xa0c0e0:nb_colors=2,format=yuv420p" \
    -filter_complex "[0][1]blend=all_mode=average,noise=alls=6:allf=t+u,format=yuv420p" \
    -frames:v "$n" -c:v libx264 -preset veryfast -crf 12 "$stem.src.mkv"
  "${ff[@]}" -i "$stem.src.mkv" -c:v libx264 -preset veryfast -crf 32 "$stem.dist.mkv"
  "${ff[@]}" -i "$stem.src.mkv" -pix_fmt yuv420p -f yuv4mpegpipe "$dir/natural_ref_$size.y4m"
  "${ff[@]}" -i "$stem.dist.mkv" -pix_fmt yuv420p -f yuv4mpegpipe "$dir/natural_dist_$size.y4m"
  rm -f "$stem.src.mkv" "$stem.dist.mkv"
  echo "$n" > "$stem.frames"
}

# make_banded SIZE N: banded_{ref,dist}_SIZE.y4m, `small` distinct frames repeated to N or more
# (content costs the same to score, and generating hundreds of 4K frames takes longer than the
# benchmark).
make_banded() {
  local size=$1 n=$2 stem=$dir/banded_$1
  cached "$stem" banded "$size" "$n" && return 0
  [ -x "$synth" ] || { echo "bench_cli.sh: $synth not found" >&2; exit 1; }
  "$synth" --scene banded_gradient --size "$size" --frames "$small" --y4m --ref "$stem.ref.part" --dist "$stem.dist.part"
  repeat_clips banded "$size" "$n" "$stem.ref.part" "$stem.dist.part"
  rm -f "$stem.ref.part" "$stem.dist.part"
}

# repeat_clips CONTENT SIZE N REF DIST: CONTENT_{ref,dist}_SIZE.y4m, the frames of the Y4M clips REF
# and DIST (the same count) repeated to N or more. Seed clips (natural_{ref,dist}_SIZE.seed.y4m in
# $VQ_BENCH_DIR, made where ffmpeg is) give natural content where ffmpeg is missing.
repeat_clips() {
  local content=$1 size=$2 n=$3 side seeds
  seeds=$(grep -ao FRAME "$4" | wc -l)
  [ "$seeds" -gt 0 ] || { echo "bench_cli.sh: $4 holds no frame" >&2; exit 1; }
  local copies=$(( (n + seeds - 1) / seeds ))
  for side in ref dist; do
    local part out=$dir/${content}_${side}_$size.y4m header
    if [ "$side" = ref ]; then part=$4; else part=$5; fi
    header=$(head -n 1 "$part" | wc -c)
    head -c "$header" "$part" > "$out"
    for _ in $(seq "$copies"); do tail -c +$((header + 1)) "$part" >> "$out"; done
  done
  echo $((copies * seeds)) > "$dir/${content}_$size.frames"
}

# --- timing ---
now() { date +%s.%N; }
# measure_together NAME...: runs the commands held in the arrays NAME... in turn, round after
# round, up to $runs rounds, so that the machine's drift between rounds (this project's shared
# 2-core machine moves by up to 40% within minutes) falls on every command alike, and the ratios
# compare runs minutes apart no more than runs seconds apart; odd rounds go in reverse order, so no
# command always follows the same one. A command whose run took longer than $long seconds is not
# run again (start-up noise no longer matters there). Prints "median-wall-seconds peak-KiB" per
# command, in order.
measure_together() {
  local count=$# round i t0 t1 rss rss_file; rss_file=$(mktemp)
  local -a names=("$@") times peaks finished order
  for ((i = 0; i < count; i++)); do times[i]="" peaks[i]=0 finished[i]=0; done
  for ((round = 0; round < runs; round++)); do
    order=()
    for ((i = 0; i < count; i++)); do
      if ((round % 2)); then order=("$i" "${order[@]}"); else order+=("$i"); fi
    done
    for i in "${order[@]}"; do
      ((finished[i])) && continue
      local -n command=${names[i]}
      t0=$(now)
      "$gnu_time" -f %M -o "$rss_file" "${command[@]}" >/dev/null 2>"$rss_file.err" ||
        { echo "bench_cli.sh: failed: ${command[*]}" >&2; cat "$rss_file.err" >&2; rm -f "$rss_file" "$rss_file.err"; exit 1; }
      t1=$(now)
      unset -n command
      rss=$(tail -n 1 "$rss_file"); [ "$rss" -gt "${peaks[i]}" ] && peaks[i]=$rss
      t=$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')
      times[i]+="$t "
      awk -v t="$t" -v l="$long" 'BEGIN {exit !(t > l)}' && finished[i]=1
    done
  done
  rm -f "$rss_file" "$rss_file.err"
  for ((i = 0; i < count; i++)); do
    echo "$(tr ' ' '\n' <<< "${times[i]}" | sed '/^$/d' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}') ${peaks[i]}"
  done
}
per_frame_ms() { awk -v b="$1" -v s="$2" -v n="$3" -v k="$small" 'BEGIN {printf "%.2f", (b - s) * 1000 / (n - k)}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b + 0 > 0 && a != "-") printf "%.2f", a / b; else printf "-"}'; }
mib() { awk -v k="$1" 'BEGIN {printf "%.0f", k / 1024}'; }

# --- the table ---
ref_version=$([ "$reference" = none ] || "$reference" --version 2>&1 | head -n 1)
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(grep -m 1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')), vq $(git describe --always --dirty 2>/dev/null || echo '?'), backend $backend, reference: ${ref_version:-none}"
echo
echo "| feature | size | content | threads | vq ms/frame | ref ms/frame | ratio | vq whole-process s | ref whole-process s | ratio | vq peak MiB | ref peak MiB | ratio |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for size in $sizes; do
  n=$(frames_for "$size")
  for content in $contents; do
    if ! "make_$content" "$size" "$n"; then
      echo "bench_cli.sh: no $content clips at $size (ffmpeg with libx264 is needed to make them); skipped" >&2
      continue
    fi
    ref=$dir/${content}_ref_$size.y4m dist=$dir/${content}_dist_$size.y4m
    cat "$ref" "$dist" > /dev/null  # into the page cache
    refarg=(-r "$ref"); [ "$noref" = 1 ] && refarg=()
    for group in "${groups[@]}"; do
      for t in $threads; do
        threadarg=(--threads "$t"); [ "$t" = 0 ] && threadarg=()  # 0: vq's default, every core
        # The group's arguments are words: split on purpose.
        # shellcheck disable=SC2206
        vq_cmd=("$vq" "${refarg[@]}" -d "$dist" ${vq_args[$group]} --backend "$backend" "${threadarg[@]}" -q --frame_cnt)
        # shellcheck disable=SC2206
        ref_cmd=("$reference" -r "$ref" -d "$dist" ${ref_args[$group]} --threads "$t" -q -o "$dir/reference.json" --json --frame_cnt)
        # shellcheck disable=SC2034  # read by measure_together through their names
        vq_n=("${vq_cmd[@]}" "$n") vq_small=("${vq_cmd[@]}" "$small")
        # shellcheck disable=SC2034
        ref_n=("${ref_cmd[@]}" "$n") ref_small=("${ref_cmd[@]}" "$small")
        commands=(vq_n vq_small)
        with_ref=0
        if [ "$reference" != none ] && [ "$t" != 0 ] && [[ " ${ref_skip[*]} " != *" $group "* ]]; then
          with_ref=1 commands+=(ref_n ref_small)
        fi
        mapfile -t measured < <(measure_together "${commands[@]}")
        [ "${#measured[@]}" -eq "${#commands[@]}" ] || exit 1
        read -r vq_big vq_peak <<< "${measured[0]}"
        read -r vq_little _ <<< "${measured[1]}"
        vq_ms=$(per_frame_ms "$vq_big" "$vq_little" "$n")
        ref_ms=- ref_big=- ref_peak=-
        if [ "$with_ref" = 1 ]; then
          read -r ref_big ref_peak <<< "${measured[2]}"
          read -r ref_little _ <<< "${measured[3]}"
          ref_ms=$(per_frame_ms "$ref_big" "$ref_little" "$n")
          ref_peak=$(mib "$ref_peak")
          ref_big=$(printf '%.2f' "$ref_big")
        fi
        printf '| %s | %s | %s | %s | %s | %s | %s | %.2f | %s | %s | %s | %s | %s |\n' \
          "$group" "$size" "$content" "${t/#0/all}" "$vq_ms" "$ref_ms" "$(ratio "$vq_ms" "$ref_ms")" \
          "$vq_big" "$ref_big" "$(ratio "$vq_big" "$ref_big")" \
          "$(mib "$vq_peak")" "$ref_peak" "$(ratio "$(mib "$vq_peak")" "$ref_peak")"
      done
    done
    if [ "$floor" = 1 ]; then
      [ -x "$read_floor" ] || { echo "bench_cli.sh: $read_floor not found" >&2; exit 1; }
      # Its own figure: the time per frame pair from the first request on, opening excluded.
      floor_ms=$("$read_floor" "$ref" "$dist" | sed -n 's/.*: \([0-9.]*\) ms each.*/\1/p')
      printf '| (read only) | %s | %s | - | %s | - | - | - | - | - | - | - | - |\n' "$size" "$content" "$floor_ms"
    fi
  done
done
