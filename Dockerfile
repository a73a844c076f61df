# fovea-serve in a container: the Open Inference Protocol on 8080 (REST, the
# page, /metrics) and 8081 (gRPC). Not built here (no Docker engine on these
# machines); see docs/serving.md and deploy/ for KServe.
#
#   docker build -t fovea-serve .
#   docker run -p 8080:8080 -p 8081:8081 -v $PWD/../shared/models:/mnt/models:ro fovea-serve \
#     --model squeezenet=/mnt/models/squeezenet1.1.onnx
#
# The image also holds the `fovea` command line (/usr/local/bin/fovea): the
# worker of deploy/collections/indexed-job.yaml, which runs it in place of the
# entrypoint (docs/large-collections.md).

# Build: the official Swift image plus the same Debian packages as CI (scripts/ci/install-deps.sh).
FROM swift:6.3-bookworm AS build
WORKDIR /src
COPY scripts/ci/install-deps.sh scripts/ci/
RUN scripts/ci/install-deps.sh
COPY . .
RUN swift build -c release --package-path Server --product fovea-serve --static-swift-stdlib \
 && mkdir /out \
 && cp Server/.build/release/fovea-serve /out/ \
 && cp -r Server/.build/release/*.resources /out/
RUN swift build -c release --product fovea --static-swift-stdlib \
 && cp .build/release/fovea /out/ \
 && cp -r .build/release/*.resources /out/

# Run: the shared libraries the builds linked (libjpeg-turbo, libpng, OpenBLAS, LLVM's
# OpenMP; for `fovea`, also FFTW, zbar and libLBFGS).
FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libturbojpeg0 libpng16-16 libopenblas0-pthread libomp5-19 ca-certificates \
      libfftw3-single3 libzbar0 liblbfgs0 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --uid 1000 --no-create-home fovea
COPY --from=build /out/ /usr/local/bin/
USER 1000
EXPOSE 8080 8081
ENTRYPOINT ["/usr/local/bin/fovea-serve", "--host", "0.0.0.0", "--http-port", "8080", "--grpc-port", "8081"]
CMD ["--model-dir", "/mnt/models"]
