"""What `adopt` reads from a record's sidecar metadata file (a KEP's `kep.yaml`)."""

import json

import pytest

from headwater.adoption.forms import derive, read_sidecar


@pytest.mark.parametrize("title", ["cAdvisor-less, CRI-full Container and Pod Stats",
                                   "Add gRPC probe to Pod.Spec.Container.{Liveness,Readiness,Startup}Probe",
                                   "Allow bind mount options (noexec, nodev, nosuid) on volumeMounts"])
def test_a_sidecar_title_with_commas_is_read_whole(title):
    derived = read_sidecar(f"title: {title}\nkep-number: 2371\nstatus: implemented\n")
    assert derived is not None and derived.title == title


def test_a_sidecar_s_replaces_written_as_a_comma_list_is_still_a_list():
    derived = read_sidecar('title: X\nreplaces: "/keps/sig-a/1-a, /keps/sig-a/2-b"\n')
    assert derived is not None and derived.supersedes == ("/keps/sig-a/1-a", "/keps/sig-a/2-b")


def test_adopt_says_when_an_identifier_is_not_the_one_the_file_s_number_makes(tmp_path, hw):
    for folder in ("sig-a/2133-one", "sig-b/2133-two", "sig-a/100-a", "sig-b/101-b", "sig-c/102-c"):
        (tmp_path / "keps" / folder).mkdir(parents=True)
        (tmp_path / "keps" / folder / "kep.yaml").write_text(f"title: {folder}\nstatus: implemented\n")
        (tmp_path / "keps" / folder / "README.md").write_text(f"# {folder}\n\n## Summary\n\nText.\n")
    assert hw("init", "--namespace", "K", "--root", str(tmp_path)).status == 0
    said = hw("adopt", "--root", str(tmp_path)).out.splitlines()
    assert "adopted keps/sig-a/2133-one/README.md: status implemented, title, id K-DR-2133" in said
    assert ("adopted keps/sig-b/2133-two/README.md: status implemented, title, id K-DR-2134 (the next free "
            "number: K-DR-2133, from the file's name, is another document's)") in said


def test_a_record_whose_status_is_a_template_s_choices_is_left_without_one_and_adopt_says_so(tmp_path, hw):
    """KEP-5000's kep.yaml kept the template's `status: provisional|implementable|…`; adopt wrote no
    status there and said nothing, so the record stood untyped by any state with no word why."""
    for folder, status in (("sig-a/100-a", "implemented"), ("sig-a/101-b", "provisional|implementable|implemented"),
                           ("sig-a/102-c", "implementable")):
        (tmp_path / "keps" / folder).mkdir(parents=True)
        (tmp_path / "keps" / folder / "kep.yaml").write_text(f"title: {folder}\nstatus: {status}\n")
        (tmp_path / "keps" / folder / "README.md").write_text(f"# {folder}\n\n## Summary\n\nText.\n")
    assert hw("init", "--namespace", "K", "--root", str(tmp_path)).status == 0
    adopted = hw("adopt", "--root", str(tmp_path))
    assert adopted.status == 0, adopted.err
    assert ("left keps/sig-a/101-b/README.md without `status`: its status is written "
            "`provisional|implementable|implemented`, which names no one status (a template's choices, left as "
            "they were); write `status` yourself\n") in adopted.out, adopted.out
    assert "adopted keps/sig-a/101-b/README.md: title, id K-DR-0101\n" in adopted.out, adopted.out


def test_a_status_bullet_that_names_no_status_is_said_and_a_blank_one_is_not(tmp_path, hw):
    decisions = tmp_path / "docs/decisions"
    decisions.mkdir(parents=True)
    for n, status in ((1, "accepted"), (2, "??? <!-- ask the team -->"), (3, ""), (4, "accepted")):
        (decisions / f"000{n}-record-{n}.md").write_text(f"# Record {n}\n\n- Status: {status}\n\n## Context\n\nWhy.\n")
    assert hw("init", "--root", str(tmp_path)).status == 0
    adopted = hw("adopt", "--root", str(tmp_path))
    assert adopted.status == 0, adopted.err
    left = [line for line in adopted.out.splitlines() if line.startswith("left ")]
    assert left == ["left docs/decisions/0002-record-2.md without `status`: its status is written `???`, which "
                    "names no one status; write `status` yourself"], adopted.out


def test_a_folder_holding_one_record_beside_folders_of_records_is_on_the_shelf(tmp_path, hw):
    """A SIG with a single KEP beside a SIG with several: init put the shelf over the one folder of
    several, and the single KEP was left untyped, its kep.yaml never adopted."""
    for folder in ("sig-a/100-a", "sig-a/101-b", "sig-b/102-c"):
        (tmp_path / "keps" / folder).mkdir(parents=True)
        (tmp_path / "keps" / folder / "kep.yaml").write_text(f"title: {folder}\nstatus: implemented\n")
        (tmp_path / "keps" / folder / "README.md").write_text(f"# {folder}\n\n## Summary\n\nText.\n")
    init = hw("init", "--namespace", "K", "--root", str(tmp_path))
    assert init.status == 0 and "  shelf decisions: 3 records in `keps`, numbered `NNN-slug/README.md`" in init.out, \
        init.out
    adopted = hw("adopt", "--root", str(tmp_path))
    assert adopted.status == 0 and "adopted keps/sig-b/102-c/README.md: status implemented, title, id K-DR-0102\n" \
        in adopted.out, adopted.out


def test_a_record_whose_sidecar_keeps_the_template_s_title_takes_its_heading_s(tmp_path, hw):
    """Six KEPs' kep.yaml kept the template's `title: KEP Template` (KEP-85, KEP-3314…); adopt wrote
    that as their title, and route named each pointer `(KEP Template)`."""
    (tmp_path / "keps/NNNN-kep-template").mkdir(parents=True)
    (tmp_path / "keps/NNNN-kep-template/kep.yaml").write_text("title: KEP Template\nstatus: provisional|implemented\n")
    (tmp_path / "keps/NNNN-kep-template/README.md").write_text("# KEP-NNNN: Your short, descriptive title\n")
    records = (("sig-a/100-a", "Alpha"), ("sig-a/85-graduate-pdb", "KEP Template"), ("sig-b/102-c", "Gamma"))
    for folder, title in records:
        (tmp_path / "keps" / folder).mkdir(parents=True)
        (tmp_path / "keps" / folder / "kep.yaml").write_text(f"title: {title}\nstatus: implemented\n")
        heading = "KEP-85: Graduate PodDisruptionBudget to stable" if title == "KEP Template" else title
        (tmp_path / "keps" / folder / "README.md").write_text(f"# {heading}\n\n## Summary\n\nText.\n")
    init = hw("init", "--namespace", "K", "--root", str(tmp_path))
    assert init.status == 0 and "exclude keps/NNNN-kep-template/README.md" in init.out, init.out
    adopted = hw("adopt", "--root", str(tmp_path))
    assert adopted.status == 0, adopted.err
    front = (tmp_path / "keps/sig-a/85-graduate-pdb/README.md").read_text().split("---\n")[1]
    assert 'title: "KEP-85: Graduate PodDisruptionBudget to stable"\n' in front, front
    assert 'title: Alpha\n' in (tmp_path / "keps/sig-a/100-a/README.md").read_text()
    route = hw("route", "graduate PodDisruptionBudget to stable", "--json", "--root", str(tmp_path))
    names = [pointer["name"] for pointer in json.loads(route.out)["pointers"]]
    assert names == ["KEP-85: Graduate PodDisruptionBudget to stable"], route.out


def test_a_sidecar_with_no_title_leaves_the_title_to_the_record_s_heading():
    derived = derive("# KEP-7: Seven\n\n## Summary\n", "kep-number: 7\nstatus: implemented\n")
    assert (derived.title, derived.status) == ("KEP-7: Seven", "implemented")
