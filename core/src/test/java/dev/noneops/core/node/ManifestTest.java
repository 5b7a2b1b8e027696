package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.node.internal.version.FileStamp;
import dev.noneops.core.node.internal.version.Manifest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ManifestTest {
  private static final String SHA = "a".repeat(64);

  @Test
  void stampsSurviveTheJsonRoundTrip() throws IOException {
    Manifest manifest = new Manifest(
        "1.31.4-abc",
        List.of(
            new Manifest.Entry(
                "bin/kubelet",
                10,
                0755,
                SHA,
                Optional.of(
                    new FileStamp(42, 1_767_225_600_123_456_789L, 1_767_225_600_000_000_001L))),
            new Manifest.Entry("bin/runc", 3, 0755, SHA)));

    Manifest parsed = Manifest.parse(manifest.toJson());

    assertThat(parsed).isEqualTo(manifest);
    assertThat(parsed.fullyStamped()).isFalse();
  }

  @Test
  void aManifestWrittenBeforeStampsIsValidAndUnstamped() throws IOException {
    String older =
        "{\"format\":1,\"version\":\"1.31.4-abc\",\"files\":[{\"path\":\"bin/runc\",\"size\":3,\"mode\":\"0755\",\"sha256\":\""
            + SHA + "\"}]}";

    Manifest parsed = Manifest.parse(older.getBytes(StandardCharsets.UTF_8));

    assertThat(parsed.files()).containsExactly(new Manifest.Entry("bin/runc", 3, 0755, SHA));
    assertThat(parsed.fullyStamped()).isFalse();
  }

  @Test
  void aPartialStampIsADefectNamingTheField() {
    String partial =
        "{\"format\":1,\"version\":\"1.31.4-abc\",\"files\":[{\"path\":\"bin/runc\",\"size\":3,\"mode\":\"0755\",\"sha256\":\""
            + SHA + "\",\"inode\":7,\"ctimeNs\":5}]}";

    assertThatThrownBy(() -> Manifest.parse(partial.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("bin/runc")
        .hasMessageContaining("mtimeNs");
  }
}
