#!/usr/bin/env python3
"""Labels a photo collection with Apache Spark: the path list's partitions each
piped through one `fovea classify --paths-from - --jsonl` process
(`rdd.pipe`, which loads the model once per partition and streams the paths
through the process's pipelined decoder). docs/large-collections.md has the
commands; on a cluster, give --master (and put fovea, the model and the photos
where every executor sees them).

    spark_classify.py --fovea PATH --manifest LIST --output DIR [--format json|parquet]
                      [--master local[2,4]] [--partitions P] [--threads T]
                      -- FOVEA CLASSIFY OPTIONS (--model, --labels, --top, ...)

The output DIR holds one row per photo: {"image": path, "result": fovea's result
as JSON text}. A fovea process that dies makes its task fail (checkCode=True),
Spark runs the task again (up to spark.task.maxFailures times; in local mode the
F of local[N,F]) and keeps only the output of the attempt that succeeded: the
output is complete and holds each photo once.
"""
import argparse
import json
import os
import shlex
import time

from pyspark.sql import SparkSession


def to_row(line):
    result = json.loads(line)
    # "line" counts the lines this process was sent: meaningless outside it.
    result.pop("line", None)
    return (result["image"], json.dumps(result, sort_keys=True, ensure_ascii=False))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fovea", required=True, help="the fovea executable (on every executor)")
    parser.add_argument("--manifest", required=True, help="the path list, one path per line")
    parser.add_argument("--output", required=True, help="the output directory")
    parser.add_argument("--format", choices=["json", "parquet"], default="json")
    parser.add_argument("--master", default="local[2,4]",
                        help="local[N,F]: N task threads, F attempts per task (plain local[N] never retries)")
    parser.add_argument("--partitions", type=int, default=8, help="parts of the list (what a dead worker costs: one part)")
    parser.add_argument("--threads", type=int, default=1, help="threads of each fovea process")
    parser.add_argument("options", nargs=argparse.REMAINDER, help="-- then fovea classify's options")
    args = parser.parse_args()
    options = args.options[1:] if args.options[:1] == ["--"] else args.options

    spark = (SparkSession.builder.master(args.master).appName("fovea-classify")
             .config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    started = time.time()
    command = [os.path.abspath(args.fovea), "classify", "--paths-from", "-", "--jsonl",
               "--progress-interval", "0", "--threads", str(args.threads)] + options
    paths = spark.sparkContext.textFile(os.path.abspath(args.manifest), minPartitions=args.partitions)
    # rdd.pipe splits the command with shlex: quote each word (paths may hold spaces).
    lines = paths.filter(lambda p: p.strip() != "").pipe(" ".join(shlex.quote(word) for word in command), checkCode=True)
    frame = spark.createDataFrame(lines.map(to_row), "image string, result string")
    writer = frame.write.mode("overwrite")
    (writer.parquet if args.format == "parquet" else writer.json)(os.path.abspath(args.output))
    seconds = time.time() - started
    count = (spark.read.parquet if args.format == "parquet" else spark.read.json)(os.path.abspath(args.output)).count()
    print(json.dumps({"photos": count, "seconds": round(seconds, 2), "imagesPerSecond": round(count / seconds, 1)}))
    spark.stop()


if __name__ == "__main__":
    main()
