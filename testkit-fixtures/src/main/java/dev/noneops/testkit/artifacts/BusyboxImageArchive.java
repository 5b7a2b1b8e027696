package dev.noneops.testkit.artifacts;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * An OCI image archive ({@code oci-layout}, {@code index.json}, and below {@code blobs/sha256} a
 * manifest, a config and one gzip'ed layer) holding Debian's statically linked busybox, for
 * nodes that run real containers with no registry: the node's containerd imports it from its
 * image archive directory ({@code ctr -n k8s.io images import}) after it starts. One archive may
 * carry the image under several names (the index lists the one manifest once per name, with
 * containerd's {@code io.containerd.image.name} annotation), so that the same busybox serves as
 * the pods' image and as the configured sandbox (pause) image.
 *
 * <p>The layer has {@code /bin/busybox}, a link per applet in {@link #APPLETS}, and the empty
 * directories a container's runtime mounts over. Its entrypoint sleeps until it is signalled.
 */
public final class BusyboxImageArchive {
  /** The busybox applets the image links in {@code /bin}. */
  public static final List<String> APPLETS = List.of(
      "sh",
      "sleep",
      "ping",
      "wget",
      "ip",
      "ifconfig",
      "cat",
      "echo",
      "ls",
      "mkdir",
      "nc",
      "sync",
      "httpd",
      "trap",
      "kill",
      "hostname",
      "touch",
      "sha256sum",
      "true",
      "dd");

  private static final String LAYER_MEDIA_TYPE = "application/vnd.oci.image.layer.v1.tar+gzip";
  private static final String CONFIG_MEDIA_TYPE = "application/vnd.oci.image.config.v1+json";
  private static final String MANIFEST_MEDIA_TYPE = "application/vnd.oci.image.manifest.v1+json";

  private BusyboxImageArchive() {}

  /** Busybox from Debian's {@code busybox-static} package at apt's candidate version. */
  public static Path busyboxFrom(DebianPackages debian) throws IOException, InterruptedException {
    return debian.extracted("busybox-static", "").resolve("bin/busybox");
  }

  /**
   * Writes the archive of {@code busybox} (a static binary) to {@code archive} (replaced
   * atomically), under each of {@code names} (full references such as {@code
   * registry.example/busybox:1}).
   */
  public static void write(Path busybox, Path archive, List<String> names, String arch)
      throws IOException {
    Objects.requireNonNull(busybox, "busybox");
    if (names.isEmpty()) {
      throw new IllegalArgumentException("an image archive needs at least one name");
    }
    byte[] layerTar = layerTar(Files.readAllBytes(busybox));
    byte[] layer = gzip(layerTar);
    byte[] config = utf8("{\"architecture\":\"" + arch + "\",\"os\":\"linux\","
        + "\"config\":{\"Env\":[\"PATH=/bin\"],\"Cmd\":[\"/bin/sleep\",\"2147483647\"],"
        + "\"WorkingDir\":\"/\"},"
        + "\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[\"" + digest(layerTar) + "\"]}}");
    byte[] manifest = utf8("{\"schemaVersion\":2,\"mediaType\":\"" + MANIFEST_MEDIA_TYPE + "\","
        + "\"config\":" + descriptor(CONFIG_MEDIA_TYPE, config, "") + ","
        + "\"layers\":[" + descriptor(LAYER_MEDIA_TYPE, layer, "") + "]}");
    StringBuilder manifests = new StringBuilder();
    for (String name : names) {
      if (manifests.length() > 0) {
        manifests.append(',');
      }
      String tag = name.substring(name.lastIndexOf(':') + 1);
      manifests.append(descriptor(
          MANIFEST_MEDIA_TYPE,
          manifest,
          ",\"platform\":{\"architecture\":\"" + arch + "\",\"os\":\"linux\"},"
              + "\"annotations\":{\"io.containerd.image.name\":\"" + name + "\","
              + "\"org.opencontainers.image.ref.name\":\"" + tag + "\"}"));
    }
    byte[] index = utf8("{\"schemaVersion\":2,\"mediaType\":"
        + "\"application/vnd.oci.image.index.v1+json\",\"manifests\":[" + manifests + "]}");

    Path dir = Objects.requireNonNull(archive.toAbsolutePath().getParent(), "archive directory");
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, ".image-", ".tmp");
    try {
      try (OutputStream out = Files.newOutputStream(tmp);
          TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
        directory(tar, "blobs/");
        directory(tar, "blobs/sha256/");
        file(tar, "oci-layout", utf8("{\"imageLayoutVersion\":\"1.0.0\"}"), 0644);
        file(tar, blob(config), config, 0644);
        file(tar, blob(layer), layer, 0644);
        file(tar, blob(manifest), manifest, 0644);
        file(tar, "index.json", index, 0644);
      }
      Files.move(tmp, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  private static byte[] layerTar(byte[] busybox) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (TarArchiveOutputStream tar = new TarArchiveOutputStream(bytes)) {
      for (String dir : List.of("bin/", "etc/", "tmp/", "proc/", "sys/", "dev/", "data/")) {
        directory(tar, dir);
      }
      file(tar, "bin/busybox", busybox, 0755);
      for (String applet : APPLETS) {
        TarArchiveEntry link = new TarArchiveEntry("bin/" + applet, TarArchiveEntry.LF_SYMLINK);
        link.setLinkName("busybox");
        tar.putArchiveEntry(link);
        tar.closeArchiveEntry();
      }
      file(tar, "etc/passwd", utf8("root:x:0:0:root:/:/bin/sh\n"), 0644);
      file(tar, "etc/group", utf8("root:x:0:\n"), 0644);
    }
    return bytes.toByteArray();
  }

  private static void directory(TarArchiveOutputStream tar, String name) throws IOException {
    TarArchiveEntry entry = new TarArchiveEntry(name);
    entry.setMode(040755);
    tar.putArchiveEntry(entry);
    tar.closeArchiveEntry();
  }

  private static void file(TarArchiveOutputStream tar, String name, byte[] content, int mode)
      throws IOException {
    TarArchiveEntry entry = new TarArchiveEntry(name);
    entry.setMode(0100000 | mode);
    entry.setSize(content.length);
    tar.putArchiveEntry(entry);
    tar.write(content);
    tar.closeArchiveEntry();
  }

  private static String descriptor(String mediaType, byte[] content, String extra) {
    return "{\"mediaType\":\"" + mediaType + "\",\"digest\":\"" + digest(content) + "\",\"size\":"
        + content.length + extra + "}";
  }

  private static String blob(byte[] content) {
    return "blobs/sha256/" + digest(content).substring("sha256:".length());
  }

  static String digest(byte[] content) {
    try {
      return "sha256:"
          + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }

  private static byte[] gzip(byte[] content) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
      gz.write(content);
    }
    return bytes.toByteArray();
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
