package dev.noneops.core.node.internal.files;

import com.google.common.hash.Hashing;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Writes shared host files only when they differ, and records each as this node's in the
 * {@link OwnershipStore}.
 *
 * <p>A file is rewritten (durably) only when it is absent, not a regular file, or differs in
 * content or mode; a link only when it is absent or points elsewhere. Each method reports
 * whether it changed anything, which is how a re-apply of an unchanged configuration restarts
 * nothing. Missing parent directories are created and recorded too, so teardown can remove the
 * directories this node created (and only those).
 *
 * <p>A file or link that is at a path before this node first writes there is the host's, not the
 * node's: it is saved first ({@link OriginalFiles}), and is put back as it was when the node lets
 * the path go ({@link #removeOwned}, or teardown). A path the node takes over is recorded before
 * it is written, so a crash at any instant never leaves a file of the node's that a later apply
 * would take for the host's; {@link #takenOver()} lists the paths taken over by this writer.
 *
 * <p>A link of the node's that something else replaced (a CNI installer renames its own
 * {@code host-local} over the node's link) is that something's now: the writer disowns the path
 * durably ({@link OwnershipStore#disown}) before it goes on, leaves what is there, and from then
 * on neither writes nor removes it; {@link #disowned()} lists the paths this writer disowned. A
 * disowned path that is gone again is the node's to link anew.
 */
public final class SharedFileWriter {
  /** The mode of parent directories created for shared files unless a caller asks otherwise. */
  public static final int DEFAULT_DIR_MODE = 0755;

  private final HostFiles files;
  private final OwnershipStore store;
  private final OriginalFiles originals;
  private final List<Path> takenOver = new ArrayList<>();
  private final List<Path> disowned = new ArrayList<>();
  private OwnershipRecord record;
  private Set<Path> disownedBefore;

  /** A writer whose saved originals live beside the ownership record ({@link #originalsBeside}). */
  public SharedFileWriter(HostFiles files, OwnershipStore store) {
    this.files = Objects.requireNonNull(files, "files");
    this.store = Objects.requireNonNull(store, "store");
    this.originals = originalsBeside(files, store);
  }

  /** The saved originals of the node whose ownership record {@code store} keeps. */
  public static OriginalFiles originalsBeside(HostFiles files, OwnershipStore store) {
    return new OriginalFiles(files, store.path().resolveSibling(ORIGINALS_DIR));
  }

  /** The directory beside the ownership record that holds the saved originals. */
  public static final String ORIGINALS_DIR = "originals";

  /** The paths this writer found with something of the host's there and took over, in order. */
  public List<Path> takenOver() {
    return List.copyOf(takenOver);
  }

  /** The paths this writer found replaced by something else and stopped owning, in order. */
  public List<Path> disowned() {
    return List.copyOf(disowned);
  }

  /** The record as this writer last saw or saved it. */
  public OwnershipRecord record() throws IOException {
    if (record == null) {
      record = store.load();
    }
    return record;
  }

  /** Writes {@code content} with {@code mode} unless it is already there; true when it wrote. */
  public boolean write(Path path, byte[] content, int mode) throws IOException {
    return write(path, content, mode, DEFAULT_DIR_MODE);
  }

  /** {@link #write(Path, byte[], int)} creating missing parents with {@code parentMode}. */
  public boolean write(Path path, byte[] content, int mode, int parentMode) throws IOException {
    OwnedEntry entry = new OwnedEntry(path, OwnedEntry.Kind.FILE, sha256(content), mode);
    Optional<FileMeta> meta = files.lstat(path);
    boolean taking = !record().owns(path);
    if (taking && meta.isPresent()) {
      takeOver(path, meta.get());
    }
    boolean same = meta.isPresent()
        && meta.get().isRegularFile()
        && (meta.get().mode() & 07777) == mode
        && meta.get().size() == content.length
        && Arrays.equals(files.read(path), content);
    if (same || taking) {
      remember(entry);
    }
    if (same) {
      return false;
    }
    ensureDirectory(path.getParent(), parentMode);
    files.writeDurably(path, content, mode);
    remember(entry);
    return true;
  }

  /**
   * Points symlink {@code link} at {@code target} unless it already does; true when it changed. A
   * regular file of the host's at {@code link} is taken over (saved, then replaced by the link);
   * what replaced a link of the node's is disowned and left; a directory or other entry in the
   * way of a link the node does not own is an error.
   */
  public boolean link(Path link, String target) throws IOException {
    OwnedEntry entry = new OwnedEntry(link, OwnedEntry.Kind.SYMLINK, target, 0);
    Optional<FileMeta> meta = files.lstat(link);
    if (disownedBefore().contains(link)) {
      if (meta.isPresent()) {
        return false;
      }
      remember(entry);
      store.reown(link);
      disownedBefore.remove(link);
    }
    boolean taking = !record().owns(link);
    if (!taking
        && meta.isPresent()
        && (replaced(record().get(link).orElseThrow(), meta.get())
            || relinked(record().get(link).orElseThrow(), meta.get(), target))) {
      disown(link, meta.get());
      return false;
    }
    if (meta.isPresent() && !meta.get().isSymlink() && !meta.get().isRegularFile()) {
      throw new IOException(
          "cannot link " + link + " -> " + target + ": a " + meta.get().type() + " is in the way");
    }
    if (taking && meta.isPresent()) {
      takeOver(link, meta.get());
    }
    if (meta.isPresent() && meta.get().isSymlink() && files.readLink(link).equals(target)) {
      remember(entry);
      return false;
    }
    if (taking) {
      remember(entry);
    }
    if (meta.isPresent() && meta.get().isRegularFile()) {
      files.removeDurably(link);
    }
    ensureDirectory(link.getParent(), DEFAULT_DIR_MODE);
    files.symlinkDurably(link, target);
    remember(entry);
    return true;
  }

  /**
   * Whether something else replaced the node's link {@code entry}: a non-link is there that is
   * not the host's saved original (which a take-over a crash interrupted leaves in place).
   */
  private boolean replaced(OwnedEntry entry, FileMeta meta) throws IOException {
    return entry.kind() == OwnedEntry.Kind.SYMLINK
        && !meta.isSymlink()
        && !originals.isSavedOriginal(entry.path(), meta);
  }

  /**
   * Whether something else put a link of its own over the node's link {@code entry}: a link is
   * there that leads neither where the record says nor to {@code wanted} (where this write leads,
   * which a crash between the link and its record can leave).
   */
  private boolean relinked(OwnedEntry entry, FileMeta meta, String wanted) throws IOException {
    if (entry.kind() != OwnedEntry.Kind.SYMLINK || !meta.isSymlink()) {
      return false;
    }
    String now = files.readLink(entry.path());
    return !now.equals(entry.fingerprint()) && !now.equals(wanted);
  }

  /** Durably stops owning {@code path}, which something else replaced with {@code meta}'s kind. */
  private void disown(Path path, FileMeta meta) throws IOException {
    store.disown(path, describe(meta));
    disownedBefore().add(path);
    record = record().without(path);
    disowned.add(path);
  }

  private static String describe(FileMeta meta) {
    return switch (meta.type()) {
      case REGULAR -> "regular file";
      case DIRECTORY -> "directory";
      default -> meta.type().name().toLowerCase(Locale.ROOT);
    };
  }

  private Set<Path> disownedBefore() throws IOException {
    if (disownedBefore == null) {
      disownedBefore = new HashSet<>();
      store.disowned().forEach(d -> disownedBefore.add(d.path()));
    }
    return disownedBefore;
  }

  /**
   * Creates {@code dir} and its missing parents with {@code mode}, recording each one created;
   * true when it created any. An existing directory is left as it is.
   */
  public boolean ensureDirectory(Path dir, int mode) throws IOException {
    Deque<Path> missing = new ArrayDeque<>();
    for (Path p = dir; p != null; p = p.getParent()) {
      Optional<FileMeta> meta = files.lstat(p);
      if (meta.isPresent()) {
        if (!meta.get().isDirectory()) {
          throw new IOException("cannot create directory " + dir + ": " + p + " is a "
              + meta.get().type());
        }
        break;
      }
      missing.push(p);
    }
    if (missing.isEmpty()) {
      return false;
    }
    files.createDirectories(dir, mode);
    for (Path created : missing) {
      remember(new OwnedEntry(created, OwnedEntry.Kind.DIRECTORY, "", mode));
    }
    return true;
  }

  /**
   * Removes {@code path} when this node recorded it and it still is what was recorded (same
   * sha256 or link target), putting back what was there before the node when that was saved;
   * forgets it either way (a link something else replaced is disowned). True when it removed or
   * restored something.
   */
  public boolean removeOwned(Path path) throws IOException {
    Optional<OwnedEntry> entry = record().get(path);
    if (entry.isEmpty()) {
      return false;
    }
    Optional<FileMeta> meta = files.lstat(path);
    if (meta.isPresent() && replaced(entry.get(), meta.get())) {
      disown(path, meta.get());
      return false;
    }
    boolean removed = false;
    boolean putBack = false;
    if (meta.isEmpty() || stillOurs(entry.get(), meta.get())) {
      if (originals.putBack(path)) {
        removed = true;
        putBack = true;
      } else if (meta.isPresent()) {
        files.removeDurably(path);
        removed = true;
      }
    }
    record = record().without(path);
    store.save(record);
    if (putBack) {
      originals.forget(path);
    }
    return removed;
  }

  /** Whether the entry at {@code meta} is still what {@code entry} says this node wrote. */
  public boolean stillOurs(OwnedEntry entry, FileMeta meta) throws IOException {
    return switch (entry.kind()) {
      case FILE ->
        meta.isRegularFile() && sha256(files.read(entry.path())).equals(entry.fingerprint());
      case SYMLINK -> meta.isSymlink() && files.readLink(entry.path()).equals(entry.fingerprint());
      case DIRECTORY -> meta.isDirectory();
    };
  }

  /** Lower-case hex sha256 of {@code content}. */
  public static String sha256(byte[] content) {
    return Hashing.sha256().hashBytes(content).toString();
  }

  private void takeOver(Path path, FileMeta meta) throws IOException {
    originals.save(path, meta);
    takenOver.add(path);
  }

  private void remember(OwnedEntry entry) throws IOException {
    if (entry.equals(record().get(entry.path()).orElse(null))) {
      return;
    }
    record = record().with(entry);
    store.save(record);
  }
}
