# Sourced by scripts whose manifest resolves a different set of packages (Scripts/docs.sh,
# Scripts/tsan.sh core): that rewrites Package.resolved, which the next build of the whole
# package would take as a change and recompile everything for. Puts the file back as it was
# when the script exits. Run from the package's root.
if [ -f Package.resolved ]; then
    saved_resolved="$(mktemp)"
    cp -p Package.resolved "$saved_resolved"
    trap 'mv "$saved_resolved" Package.resolved' EXIT
else
    trap 'rm -f Package.resolved' EXIT
fi
