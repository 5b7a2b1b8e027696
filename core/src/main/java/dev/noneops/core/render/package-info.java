/**
 * Pure renderers of every file a node writes: systemd units and drop-ins (through
 * {@link dev.noneops.core.render.UnitFileWriter}, which escapes per systemd's syntax),
 * containerd's TOML, LocalDNS's Corefile, kubeconfigs, host tuning files and the CNI links.
 * Each returns bytes (or a plan), deterministic for equal input, and touches nothing.
 */
package dev.noneops.core.render;
