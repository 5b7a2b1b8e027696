package dev.noneops.core.node.internal.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The entries that were below {@code /etc/cni} and {@code /var/lib/cni} before this node came (a
 * foreign runtime's network configuration, its host-local reservations in {@code
 * networks/<net>/}, its cached {@code results/}): the host's, not the node's. Taken once, when
 * the node is provisioned and before its stack first runs, and kept durably in the layout; a
 * provision run again (after a crash, say) keeps the first record, since by then the node's pods
 * may have written there. The CNI clean-ups of upgrade, rollback and teardown leave every
 * recorded entry (and a recorded directory itself) and remove only the rest.
 *
 * <pre>
 * {"format":1,"roots":["/etc/cni","/var/lib/cni"],
 *  "entries":["/etc/cni","/etc/cni/net.d","/etc/cni/net.d/05-foreign.conflist",…]}
 * </pre>
 *
 * The walk never follows a symlink: a recorded link is kept as a link, and nothing behind it is
 * looked at.
 */
public final class PreexistingCniEntries {
  /** Where CNI plugins keep their state (IPAM leases and the like). */
  public static final String CNI_STATE_DIR = "/var/lib/cni";

  /** The CNI configuration's parent, recorded so a teardown knows whether the node created it. */
  public static final String CONF_PARENT = "/etc/cni";

  private final HostFiles files;
  private final HostPaths paths;
  private final RecordBeforeTheNode record;

  public PreexistingCniEntries(HostFiles files, HostPaths paths, Layout layout) {
    this.files = Objects.requireNonNull(files, "files");
    this.paths = Objects.requireNonNull(paths, "paths");
    this.record = new RecordBeforeTheNode(
        files,
        Objects.requireNonNull(layout, "layout").cniBefore(),
        "the record of the CNI entries from before the node",
        "entries");
  }

  /** Where the record is kept. */
  public Path path() {
    return record.path();
  }

  /** The trees the record covers: {@code /etc/cni} and {@code /var/lib/cni}, below the host root. */
  public List<Path> roots() {
    return List.of(paths.host(CONF_PARENT), paths.host(PreexistingCniEntries.CNI_STATE_DIR));
  }

  /** Records what is in the CNI trees now, durably, unless a record was taken already. */
  public void recordIfAbsent() throws IOException {
    if (record.exists()) {
      return;
    }
    List<String> entries = walk().stream().map(Path::toString).toList();
    record.writeIfAbsent(entries, doc -> {
      ArrayNode roots = doc.putArray("roots");
      roots().forEach(r -> roots.add(r.toString()));
    });
  }

  /**
   * The recorded entries; empty when no record was taken (a node provisioned before records were
   * kept), so a caller keeps everything rather than guess.
   *
   * @throws CorruptStateException when the record cannot be read, or names a path outside the
   *     CNI trees
   */
  public Optional<Set<Path>> load() throws IOException {
    Optional<List<JsonNode>> entries = record.readList();
    if (entries.isEmpty()) {
      return Optional.empty();
    }
    Set<Path> out = new TreeSet<>();
    for (JsonNode e : entries.get()) {
      Path p = Path.of(e.asText()).normalize();
      if (!e.isTextual() || !p.isAbsolute() || roots().stream().noneMatch(p::startsWith)) {
        throw record.corrupt("names " + e + ", which is not below " + roots());
      }
      out.add(p);
    }
    return Optional.of(out);
  }

  /** Every entry of the CNI trees, the roots included, without following a symlink. */
  private Set<Path> walk() throws IOException {
    Set<Path> found = new TreeSet<>();
    Deque<Path> todo = new ArrayDeque<>(roots());
    while (!todo.isEmpty()) {
      Path p = todo.pop();
      Optional<FileMeta> meta = files.lstat(p);
      if (meta.isEmpty()) {
        continue;
      }
      found.add(p);
      if (meta.get().isDirectory()) {
        try {
          for (String name : files.list(p)) {
            todo.push(p.resolve(name));
          }
        } catch (IOException e) {
          if (!HostIOException.hasErrno(e, Errno.ENOENT)) {
            throw e;
          }
        }
      }
    }
    return found;
  }
}
