package dev.noneops.core.config;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether only root can change what a path names, before root acts on it: every entry on the way,
 * from {@code /} down to the file itself, must be owned by root (uid 0) and writable neither by its
 * group nor by others. Links are followed to where they lead, each link on the way being an entry
 * too, so what is judged is the real path and everything that could redirect it.
 *
 * <p>One exception: a directory root owns with the sticky bit (as {@code /tmp}, mode {@code 1777})
 * may be writable by everyone, since there nobody but root can rename or remove an entry root owns;
 * the entries below it are judged as any other. A path whose last components do not exist is
 * judged by what exists above them: nobody but root can create what is missing there.
 */
public final class RootOnlyPath {
  private static final int MAX_LINKS = 40;
  private static final int GROUP_WRITE = 0020;
  private static final int OTHER_WRITE = 0002;
  private static final int STICKY = 01000;

  private final HostFiles files;

  public RootOnlyPath(HostFiles files) {
    this.files = Objects.requireNonNull(files, "files");
  }

  /**
   * Refuses {@code path} unless only root can change it.
   *
   * @param role what the file is to the caller, e.g. {@code the agent's configuration file},
   *     which starts the refusal's message
   * @throws WritableByOthersException when an entry on the way is not root's or others can write it
   * @throws IOException when an entry cannot be examined, or the links loop
   */
  public void require(String role, Path path) throws IOException {
    if (!path.isAbsolute()) {
      throw new IllegalArgumentException("not an absolute path: " + path);
    }
    Deque<String> pending = new ArrayDeque<>();
    pushComponents(pending, path);
    Path at = path.getRoot();
    judge(role, path, at, files.lstat(at).orElseThrow());
    int links = 0;
    while (!pending.isEmpty()) {
      String name = pending.pop();
      if (name.equals(".")) {
        continue;
      }
      if (name.equals("..")) {
        at = at.getParent() == null ? at : at.getParent();
        continue;
      }
      Path next = at.resolve(name);
      Optional<FileMeta> meta = files.lstat(next);
      if (meta.isEmpty()) {
        return;
      }
      judge(role, path, next, meta.get());
      if (meta.get().isSymlink()) {
        if (++links > MAX_LINKS) {
          throw new HostIOException(Errno.ELOOP, "resolve", path.toString());
        }
        Path target = Path.of(files.readLink(next));
        pushComponents(pending, target);
        if (target.isAbsolute()) {
          at = target.getRoot();
        }
      } else {
        at = next;
      }
    }
  }

  private static void pushComponents(Deque<String> pending, Path path) {
    for (int i = path.getNameCount() - 1; i >= 0; i--) {
      pending.push(path.getName(i).toString());
    }
  }

  private static void judge(String role, Path file, Path entry, FileMeta meta)
      throws WritableByOthersException {
    int mode = meta.mode() & 07777;
    if (meta.uid() != 0) {
      throw new WritableByOthersException(
          role, file, entry, meta.uid(), mode, "is owned by a user other than root");
    }
    if (meta.isSymlink()) {
      return;
    }
    if (meta.isDirectory() && (mode & STICKY) != 0) {
      return;
    }
    boolean group = (mode & GROUP_WRITE) != 0;
    boolean others = (mode & OTHER_WRITE) != 0;
    if (group || others) {
      String who = group && others ? "its group and by others" : group ? "its group" : "others";
      throw new WritableByOthersException(
          role, file, entry, meta.uid(), mode, "is writable by " + who);
    }
  }
}
