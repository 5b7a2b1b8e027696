package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.goalstate.internal.BesideTheArtifact;
import java.net.URI;
import org.junit.jupiter.api.Test;

class BesideTheArtifactTest {
  @Test
  void aSuffixGoesOnThePathBeforeTheQueryAndFragment() {
    assertThat(BesideTheArtifact.withSuffix(
            URI.create("https://b.example.com/k8s/kubelet?X-Amz-Signature=ab%2Fc#part"), ".sha256"))
        .hasToString("https://b.example.com/k8s/kubelet.sha256?X-Amz-Signature=ab%2Fc#part");
    assertThat(BesideTheArtifact.withSuffix(URI.create("https://dl.k8s.io/v1/kubelet"), ".sha256"))
        .hasToString("https://dl.k8s.io/v1/kubelet.sha256");
  }

  @Test
  void aSiblingReplacesTheLastPathSegmentAndKeepsTheQuery() {
    assertThat(BesideTheArtifact.sibling(
            URI.create("https://m.example.com/r/v1.1.12/runc.amd64?token=a/b"), "runc.sha256sum"))
        .hasToString("https://m.example.com/r/v1.1.12/runc.sha256sum?token=a/b");
    assertThat(BesideTheArtifact.sibling(URI.create("https://m.example.com/r/runc.amd64"), "SUMS"))
        .hasToString("https://m.example.com/r/SUMS");
  }

  @Test
  void aUrlWithoutAPathKeepsItsHost() {
    assertThat(
            BesideTheArtifact.withSuffix(URI.create("https://m.example.com?f=kubelet"), ".sha256"))
        .hasToString("https://m.example.com/.sha256?f=kubelet");
    assertThat(BesideTheArtifact.sibling(URI.create("https://m.example.com?f=runc"), "SUMS"))
        .hasToString("https://m.example.com/SUMS?f=runc");
  }
}
