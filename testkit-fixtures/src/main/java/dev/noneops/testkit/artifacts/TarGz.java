package dev.noneops.testkit.artifacts;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;

/**
 * Builds real {@code .tar.gz} content for artifacts served by the {@link SimArtifactRepository},
 * including hostile entries (absolute paths, {@code ..}, links out of the tree) to test safe
 * extraction: {@code TarGz.builder().file("bin/kubelet", bytes, 0755).symlink("bin/k", "kubelet").build()}.
 */
public final class TarGz {
  private TarGz() {}

  public static Builder builder() {
    return new Builder();
  }

  /** Collects entries in the order they will appear in the archive. */
  public static final class Builder {
    private sealed interface Item {}

    private record FileItem(String name, byte[] content, int mode) implements Item {}

    private record DirItem(String name, int mode) implements Item {}

    private record LinkItem(String name, String target, boolean hard) implements Item {}

    private final List<Item> items = new ArrayList<>();

    /** A regular file; the name is used verbatim (it may be hostile on purpose). */
    public Builder file(String name, byte[] content, int mode) {
      items.add(new FileItem(name, content.clone(), mode));
      return this;
    }

    /** A regular file with UTF-8 text. */
    public Builder file(String name, String content, int mode) {
      return file(name, content.getBytes(StandardCharsets.UTF_8), mode);
    }

    public Builder directory(String name, int mode) {
      items.add(new DirItem(name.endsWith("/") ? name : name + "/", mode));
      return this;
    }

    public Builder symlink(String name, String target) {
      items.add(new LinkItem(name, target, false));
      return this;
    }

    public Builder hardLink(String name, String target) {
      items.add(new LinkItem(name, target, true));
      return this;
    }

    /** The gzip-compressed tar archive. */
    public byte[] build() {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (GzipCompressorOutputStream gz = new GzipCompressorOutputStream(bytes);
          TarArchiveOutputStream tar = new TarArchiveOutputStream(gz)) {
        tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
        for (Item item : items) {
          TarArchiveEntry entry;
          byte[] content = new byte[0];
          if (item instanceof FileItem f) {
            entry = new TarArchiveEntry(f.name(), true);
            entry.setMode(0100000 | f.mode());
            entry.setSize(f.content().length);
            content = f.content();
          } else if (item instanceof DirItem d) {
            entry = new TarArchiveEntry(d.name(), true);
            entry.setMode(040000 | d.mode());
          } else {
            LinkItem l = (LinkItem) item;
            entry = new TarArchiveEntry(
                l.name(), l.hard() ? TarArchiveEntry.LF_LINK : TarArchiveEntry.LF_SYMLINK, true);
            entry.setLinkName(l.target());
            entry.setMode(l.hard() ? 0100644 : 0120777);
          }
          entry.setModTime(0);
          tar.putArchiveEntry(entry);
          tar.write(content);
          tar.closeArchiveEntry();
        }
        tar.finish();
      } catch (IOException e) {
        throw new UncheckedIOException("building an in-memory tar.gz failed", e);
      }
      return bytes.toByteArray();
    }
  }
}
