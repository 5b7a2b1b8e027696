package dev.noneops.core.node;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;

/** Builds gzip'ed tarballs, hostile ones included, for the extraction tests. */
final class Tarballs {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final TarArchiveOutputStream tar;

  Tarballs() {
    try {
      tar = new TarArchiveOutputStream(new GzipCompressorOutputStream(bytes));
      tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  Tarballs file(String name, int mode, String content) throws IOException {
    byte[] data = content.getBytes(StandardCharsets.UTF_8);
    TarArchiveEntry e = new TarArchiveEntry(name, true);
    e.setMode(mode);
    e.setSize(data.length);
    tar.putArchiveEntry(e);
    tar.write(data);
    tar.closeArchiveEntry();
    return this;
  }

  Tarballs dir(String name) throws IOException {
    TarArchiveEntry e = new TarArchiveEntry(name.endsWith("/") ? name : name + "/", true);
    tar.putArchiveEntry(e);
    tar.closeArchiveEntry();
    return this;
  }

  Tarballs symlink(String name, String target) throws IOException {
    return link(name, target, TarConstants.LF_SYMLINK);
  }

  Tarballs hardlink(String name, String target) throws IOException {
    return link(name, target, TarConstants.LF_LINK);
  }

  Tarballs special(String name, byte type) throws IOException {
    TarArchiveEntry e = new TarArchiveEntry(name, type, true);
    tar.putArchiveEntry(e);
    tar.closeArchiveEntry();
    return this;
  }

  private Tarballs link(String name, String target, byte type) throws IOException {
    TarArchiveEntry e = new TarArchiveEntry(name, type, true);
    e.setLinkName(target);
    tar.putArchiveEntry(e);
    tar.closeArchiveEntry();
    return this;
  }

  byte[] build() throws IOException {
    tar.finish();
    tar.close();
    return bytes.toByteArray();
  }
}
