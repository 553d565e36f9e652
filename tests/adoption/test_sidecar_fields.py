"""What `adopt` reads from a record's sidecar metadata file (a KEP's `kep.yaml`)."""

import pytest

from headwater.adoption.forms import read_sidecar


@pytest.mark.parametrize("title", ["cAdvisor-less, CRI-full Container and Pod Stats",
                                   "Add gRPC probe to Pod.Spec.Container.{Liveness,Readiness,Startup}Probe",
                                   "Allow bind mount options (noexec, nodev, nosuid) on volumeMounts"])
def test_a_sidecar_title_with_commas_is_read_whole(title):
    derived = read_sidecar(f"title: {title}\nkep-number: 2371\nstatus: implemented\n")
    assert derived is not None and derived.title == title


def test_a_sidecar_s_replaces_written_as_a_comma_list_is_still_a_list():
    derived = read_sidecar('title: X\nreplaces: "/keps/sig-a/1-a, /keps/sig-a/2-b"\n')
    assert derived is not None and derived.supersedes == ("/keps/sig-a/1-a", "/keps/sig-a/2-b")
