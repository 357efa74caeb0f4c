#pragma once
once_h_only_once
