package dev.noneops.core.layout;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The agent-owned directory (default {@value #DEFAULT_ROOT}): one directory per installed
 * version, the {@code current} link selecting the active one, and the upgrade state.
 *
 * <pre>
 * /opt/unbounded/node/
 *   &lt;version&gt;/bin/...             kubelet, containerd, runc, crictl, the LocalDNS server, ...
 *   &lt;version&gt;/libexec/cni/...     the CNI plugins of this version
 *   &lt;version&gt;/MANIFEST.json       every installed file with size, mode, sha256; written last
 *   current -&gt; &lt;version&gt;         relative symlink, flipped by rename(2)
 *   upgrade-journal.json          the upgrade in flight
 *   confsnap/                     the shared files saved before an upgrade
 *   .lock                         serialises every mutating operation
 *   .staging/                     downloads and extraction in progress
 * </pre>
 */
public record Layout(Path root) {
  public static final String DEFAULT_ROOT = "/opt/unbounded/node";

  public static final String CURRENT = "current";
  public static final String MANIFEST = "MANIFEST.json";
  public static final String JOURNAL = "upgrade-journal.json";
  public static final String CONFSNAP = "confsnap";
  public static final String LOCK = ".lock";
  public static final String STAGING = ".staging";
  public static final String TEARDOWN = ".teardown";
  /** The name prefix of a version being removed: {@code .removing-<version>} in the root. */
  public static final String REMOVING_PREFIX = ".removing-";

  public static final String CREATED_PARENTS = ".created-parents";
  public static final String CNI_BEFORE = ".cni-before.json";
  public static final String LINKS_BEFORE = ".links-before.json";
  public static final String BIN = "bin";
  public static final String CNI = "libexec/cni";

  public Layout {
    Objects.requireNonNull(root, "root");
    if (!root.isAbsolute()) {
      throw new IllegalArgumentException("layout root must be absolute: " + root);
    }
    root = root.normalize();
  }

  /** The default layout at {@value #DEFAULT_ROOT}. */
  public static Layout defaultLayout() {
    return new Layout(Path.of(DEFAULT_ROOT));
  }

  public Path versionDir(String version) {
    return root.resolve(VersionNames.requireSafe(version));
  }

  public Path binDir(String version) {
    return versionDir(version).resolve(BIN);
  }

  public Path cniDir(String version) {
    return versionDir(version).resolve(CNI);
  }

  public Path manifest(String version) {
    return versionDir(version).resolve(MANIFEST);
  }

  public Path current() {
    return root.resolve(CURRENT);
  }

  /** {@code current/bin}: where units find the active version's binaries. */
  public Path currentBin() {
    return current().resolve(BIN);
  }

  /** {@code current/libexec/cni}: what {@code /opt/cni/bin/<plugin>} links point at. */
  public Path currentCni() {
    return current().resolve(CNI);
  }

  public Path journal() {
    return root.resolve(JOURNAL);
  }

  public Path confsnap() {
    return root.resolve(CONFSNAP);
  }

  public Path lock() {
    return root.resolve(LOCK);
  }

  /**
   * The durable note that a teardown of this node has started: evidence that the node was here
   * after the teardown removed its units and records, so an interrupted teardown is run again.
   */
  public Path teardownMarker() {
    return root.resolve(TEARDOWN);
  }

  /**
   * The directories above the layout that its creation made (one absolute path a line, deepest
   * last), so a teardown removes them once empty and keeps every one that was there before.
   */
  public Path createdParents() {
    return root.resolve(CREATED_PARENTS);
  }

  /**
   * The durable record, taken once when the node is provisioned, of the entries that were in the
   * CNI configuration and state directories before the node came: the host's, never removed.
   */
  public Path cniBefore() {
    return root.resolve(CNI_BEFORE);
  }

  /**
   * The durable record, taken once when the node is provisioned, of the network links the host
   * had before the node came: the host's, never removed.
   */
  public Path linksBefore() {
    return root.resolve(LINKS_BEFORE);
  }

  public Path staging() {
    return root.resolve(STAGING);
  }
}
