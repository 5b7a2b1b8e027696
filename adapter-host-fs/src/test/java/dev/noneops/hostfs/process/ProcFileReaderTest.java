package dev.noneops.hostfs.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcFileReaderTest {

  @TempDir
  Path dir;

  private String lastRead(ProcFileReader reader) {
    return new String(reader.bytes(), 0, reader.length(), StandardCharsets.UTF_8);
  }

  @Test
  void growsForALargeFileAndReadsTheNextSmallerOneFromTheStart() throws Exception {
    Path large = Files.writeString(dir.resolve("large"), "a".repeat(10_000) + "b");
    Path small = Files.writeString(dir.resolve("small"), "cd");
    Path empty = Files.writeString(dir.resolve("empty"), "");
    ProcFileReader reader = new ProcFileReader(16);

    reader.read(large);
    assertThat(reader.length()).isEqualTo(10_001);
    assertThat(lastRead(reader)).endsWith("ab");

    reader.read(small);
    assertThat(lastRead(reader)).isEqualTo("cd");

    reader.read(empty);
    assertThat(reader.length()).isZero();
  }

  @Test
  void readsAKernelFileThatReportsNoSize() throws Exception {
    ProcFileReader reader = new ProcFileReader(8);

    reader.read(Path.of("/proc/self/status"));

    assertThat(Files.size(Path.of("/proc/self/status"))).isZero();
    assertThat(lastRead(reader)).startsWith("Name:").contains("\nPid:");
  }

  @Test
  void reportsAMissingFileAsTheJdkDoes() {
    assertThatThrownBy(() -> new ProcFileReader().read(dir.resolve("absent")))
        .isInstanceOf(NoSuchFileException.class);
  }

  @Test
  void needsAPositiveCapacity() {
    assertThatThrownBy(() -> new ProcFileReader(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("capacity");
  }

  @Test
  void keepsTheBytesItRead() throws Exception {
    byte[] binary = new byte[300];
    Arrays.fill(binary, (byte) 0);
    binary[299] = (byte) 0xff;
    Path file = Files.write(dir.resolve("binary"), binary);
    ProcFileReader reader = new ProcFileReader(7);

    reader.read(file);

    assertThat(Arrays.copyOf(reader.bytes(), reader.length())).isEqualTo(binary);
  }
}
