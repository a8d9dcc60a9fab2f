// One include for the json room: reading JSON and YAML input into a scenario, writing results, objects and YAML back.
#pragma once

#include <dra/json/defaults.hpp>
#include <dra/json/emit.hpp>
#include <dra/json/ingest.hpp>
#include <dra/json/overlay.hpp>
#include <dra/json/scheduler_config.hpp>
#include <dra/json/writer.hpp>
#include <dra/json/yaml.hpp>
