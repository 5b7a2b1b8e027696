package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.UrlRedaction;
import org.junit.jupiter.api.Test;

class UrlRedactionTest {
  @Test
  void aSignedUrlKeepsItsKeysAndLosesItsValues() {
    assertThat(UrlRedaction.redact("artifact kubelet from https://dl.example.com/k8s/kubelet"
            + "?X-Amz-Credential=AKID%2F20261204&X-Amz-Signature=0a1b2c: HTTP 403"))
        .isEqualTo("artifact kubelet from https://dl.example.com/k8s/kubelet"
            + "?X-Amz-Credential=REDACTED&X-Amz-Signature=REDACTED: HTTP 403");
  }

  @Test
  void userInformationIsRedactedAndTheHostKept() {
    assertThat(UrlRedaction.redact("download https://alice:s3cret@mirror.example.com:8443/a.tgz."))
        .isEqualTo("download https://REDACTED@mirror.example.com:8443/a.tgz.");
  }

  @Test
  void aFragmentsValuesAndABareQueryWordAreRedactedToo() {
    assertThat(UrlRedaction.redact("see http://h.example/p?tok3n#access_token=abc&x=1"))
        .isEqualTo("see http://h.example/p?REDACTED#access_token=REDACTED&x=REDACTED");
  }

  @Test
  void everyUrlOfATextIsRedactedAndTheRestLeftAsItIs() {
    assertThat(
            UrlRedaction.redact(
                "a (https://a.example/x?sig=1), b https://b.example/y and no secret in ftp://c.example/z"))
        .isEqualTo("a (https://a.example/x?sig=REDACTED), b https://b.example/y and no secret in"
            + " ftp://c.example/z");
  }

  @Test
  void aTextWithoutUrlsIsUnchanged() {
    assertThat(UrlRedaction.redact("the drain of worker-1 did not finish: a=b?c"))
        .isEqualTo("the drain of worker-1 did not finish: a=b?c");
    assertThat(UrlRedaction.redact(null)).isNull();
  }
}
