package dev.noneops.core.node.internal.files;

import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.layout.HostPaths;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The shared host paths a node owns, derived from its {@link HostPaths}: the only paths a saved
 * configuration may name. A path is in scope when it is absolute and normalised and is
 *
 * <ul>
 *   <li>one of the files the node writes (its three units, containerd's config, kubelet's
 *       kubeconfigs and CA certificate, the sysctl and modules-load presets, the applied config
 *       with its checksum and the ownership record),
 *   <li>or lies in a directory only the node writes into (kubelet's drop-ins, containerd's
 *       {@code conf.d}, LocalDNS's configuration, the CNI plugin links, and the saved originals
 *       of the host's files it takes over),
 *   <li>or, saved as absent (which restore removes only once it is an empty directory), is a
 *       directory the node creates: kubelet's data and static-pod directories, and every ancestor
 *       of the paths above strictly below the root.
 * </ul>
 */
public final class SharedPathScope {
  private final Set<Path> files = new TreeSet<>();
  private final Set<Path> trees = new TreeSet<>();
  private final Set<Path> directories = new TreeSet<>();

  public SharedPathScope(HostPaths paths) {
    Objects.requireNonNull(paths, "paths");
    for (String unit : HostPaths.STACK_UNITS) {
      files.add(paths.unit(unit));
    }
    Path applied = paths.appliedConfig();
    files.addAll(List.of(
        paths.containerdConfig(),
        paths.bootstrapKubeconfig(),
        paths.kubeconfig(),
        paths.apiServerCaCert(),
        paths.sysctlFile(),
        paths.modulesLoadFile(),
        applied,
        applied.resolveSibling(applied.getFileName() + AppliedConfigStore.SIDECAR_SUFFIX),
        paths.ownershipRecord()));
    trees.addAll(List.of(
        paths.kubeletDropInDir(),
        paths.containerdConfDir(),
        paths.localDnsConfigDir(),
        paths.cniBinDir(),
        paths.ownershipRecord().resolveSibling(SharedFileWriter.ORIGINALS_DIR)));
    directories.addAll(List.of(paths.kubeletDir(), paths.manifestsDir()));
    Set<Path> owned = new TreeSet<>(files);
    owned.addAll(trees);
    owned.addAll(directories);
    for (Path p : owned) {
      for (Path parent = p.getParent();
          parent != null && parent.startsWith(paths.root()) && !parent.equals(paths.root());
          parent = parent.getParent()) {
        directories.add(parent);
      }
    }
  }

  /** Why {@code path}, saved as {@code kind}, is out of scope; empty when it is in scope. */
  public Optional<String> refusal(Path path, SavedFile.Kind kind) {
    if (!path.isAbsolute()) {
      return Optional.of("path '" + path + "' is not absolute");
    }
    if (!path.normalize().equals(path)) {
      return Optional.of("path '" + path + "' is not normalised");
    }
    if (files.contains(path) || trees.stream().anyMatch(path::startsWith)) {
      return Optional.empty();
    }
    if (kind == SavedFile.Kind.ABSENT && directories.contains(path)) {
      return Optional.empty();
    }
    return Optional.of("path '" + path + "' is not one of the shared paths the node owns");
  }

  /** Whether {@code path} is in scope only as a directory the node creates (so restore may remove it only when it is an empty directory). */
  public boolean onlyAsDirectory(Path path) {
    return !files.contains(path)
        && trees.stream().noneMatch(path::startsWith)
        && directories.contains(path);
  }
}
